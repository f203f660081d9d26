import { BILLING_PERIODS, type TBillingPeriod, type TBillingPlan } from '@wms/contracts';
import { App, Button, Card, Col, Empty, Form, Input, Modal, Row, Space, Spin, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/forms/error-text';
import { requestContract, useCrmPlans, usePlans, useSetPlan } from '../api';
import { twd } from '../money';

/**
 * /billing without a contract: the operator's quarterly and annual plans with their prices (incl. tax), and a
 * "request a contract" action that files a support request for the staff — instead of a dead end.
 */
export function PlansCard() {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const plans = usePlans();
  const [asking, setAsking] = useState<TBillingPlan | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [filed, setFiled] = useState<TBillingPeriod | null>(null);
  if (plans.isLoading) return <Spin />;
  const list = plans.data?.plans ?? [];
  const send = async () => {
    if (!asking) return;
    setBusy(true);
    try {
      await requestContract({ period: asking.period, note });
      setFiled(asking.period);
      message.success(t('plans.requested'));
      setAsking(null);
      setNote('');
    } catch (err) {
      message.error(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('plans.title')} data-testid="billing-plans">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('contract.none')}</Typography.Text>
        {list.length === 0 ? (
          <Empty description={t('plans.none')} />
        ) : (
          <Row gutter={16}>
            {list.map((p) => (
              <Col xs={24} md={12} key={p.period}>
                <Card size="small" title={`${p.plan}（${t(`periods.${p.period}`)}）`} data-testid={`plan-${p.period}`}>
                  <Statistic title={t('plans.perPeriod')} value={twd(p.total)} />
                  <Typography.Text type="secondary">
                    {t('plans.breakdown', { price: twd(p.price), tax: twd(p.tax) })}
                  </Typography.Text>
                  <div style={{ marginTop: 12 }}>
                    <Space wrap align="center">
                      <Button
                        type="primary"
                        onClick={() => setAsking(p)}
                        disabled={filed === p.period}
                        data-testid={`plan-request-${p.period}`}
                      >
                        {t('plans.request')}
                      </Button>
                      {filed === p.period ? (
                        <Typography.Text type="success" data-testid="plan-requested">
                          {t('plans.requested')}
                        </Typography.Text>
                      ) : null}
                    </Space>
                  </div>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Space>
      <Modal
        open={!!asking}
        title={asking ? t('plans.requestTitle', { plan: asking.plan, period: t(`periods.${asking.period}`) }) : ''}
        okText={t('plans.send')}
        onOk={() => void send()}
        confirmLoading={busy}
        onCancel={() => setAsking(null)}
        okButtonProps={{ 'data-testid': 'plan-request-send' } as Record<`data-${string}`, string>}
      >
        <Typography.Paragraph>{t('plans.requestHint')}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder={t('plans.note')}
          data-testid="plan-request-note"
        />
      </Modal>
    </Card>
  );
}

/** CRM: the list prices a seller without a contract sees (a seller's contract overrides them). */
export function CrmListPrices() {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const plans = useCrmPlans();
  const save = useSetPlan();
  const [form] = Form.useForm();
  const [open, setOpen] = useState(false);
  const byPeriod = new Map((plans.data?.plans ?? []).map((p) => [p.period, p]));
  const submit = async () => {
    const v = (await form.validateFields()) as Record<TBillingPeriod, { plan: string; price: string }>;
    try {
      for (const period of BILLING_PERIODS) {
        const row = v[period];
        if (row?.plan && row.price) await save.mutateAsync({ period, plan: row.plan, price: row.price });
      }
      message.success(t('contract.saved'));
      setOpen(false);
    } catch (err) {
      message.error(errorText(err));
    }
  };
  return (
    <Card
      size="small"
      title={t('plans.listPrices')}
      style={{ marginBottom: 16 }}
      data-testid="crm-list-prices"
      extra={
        <Button size="small" onClick={() => setOpen(!open)} data-testid="crm-list-prices-edit">
          {t('plans.editPrices')}
        </Button>
      }
    >
      {open ? (
        <Form
          form={form}
          layout="inline"
          initialValues={Object.fromEntries(
            BILLING_PERIODS.map((p) => [
              p,
              {
                plan: byPeriod.get(p)?.plan ?? '',
                price: byPeriod.get(p) ? String(Number(byPeriod.get(p)!.price)) : '',
              },
            ]),
          )}
        >
          {BILLING_PERIODS.map((p) => (
            <Space key={p} align="start" style={{ marginBottom: 8 }}>
              <Typography.Text strong style={{ width: 48, display: 'inline-block' }}>
                {t(`periods.${p}`)}
              </Typography.Text>
              <Form.Item name={[p, 'plan']} label={t('contract.plan')}>
                <Input data-testid={`list-plan-${p}`} />
              </Form.Item>
              <Form.Item
                name={[p, 'price']}
                label={t('contract.price')}
                rules={[{ pattern: /^\d{1,12}(\.\d{1,4})?$/, message: t('refund.amountWhole') }]}
              >
                <Input prefix="NT$" data-testid={`list-price-${p}`} />
              </Form.Item>
            </Space>
          ))}
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="list-prices-save">
            {t('contract.save')}
          </Button>
        </Form>
      ) : (
        <Space wrap size="large">
          {BILLING_PERIODS.map((p) => {
            const row = byPeriod.get(p);
            return (
              <span key={p} data-testid={`list-price-view-${p}`}>
                {t(`periods.${p}`)}：
                {row ? `${row.plan} ${twd(row.price)}（${t('plans.incl', { total: twd(row.total) })}）` : '—'}
              </span>
            );
          })}
        </Space>
      )}
    </Card>
  );
}
