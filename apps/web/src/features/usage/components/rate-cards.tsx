import { RATE_CARD_KINDS, type TRateCard, type TRateCardInput, USAGE_TAX_RATE } from '@wms/contracts';
import {
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/forms/error-text';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { twd } from '../../billing/money';
import { useDeleteRateCard, useRateCards, useSaveRateCard } from '../api';
import '../i18n';

const RATE = /^\d{1,12}(\.\d{1,4})?$/;

/** A rate and the same with the 5 % business tax (rounded to cents for reading). */
export function withTax(rate: string): string {
  return (Math.round(Number(rate) * (1 + Number(USAGE_TAX_RATE)) * 100) / 100).toString();
}

type TFormValues = {
  valid_from: Dayjs | null;
  note: string;
  storage_free_days: number | null;
  rates: Record<string, string | undefined>;
};

/**
 * CRM: rate cards — the default card (customerId null) or one seller's cards, each from a day (Asia/Taipei) until the
 * next. A card that priced work is kept as it is: to change prices, add a card from a later day.
 */
export function CrmRateCards({ customerId }: { customerId: string | null }) {
  const { t } = useTranslation('usage');
  const { message } = App.useApp();
  const cards = useRateCards(customerId);
  const save = useSaveRateCard();
  const remove = useDeleteRateCard();
  const [form] = Form.useForm<TFormValues>();
  const { showError, clearError, formError } = useFormErrors(form);
  const [editing, setEditing] = useState<TRateCard | 'new' | null>(null);
  const list = customerId ? (cards.data?.cards ?? []) : (cards.data?.default_cards ?? []);
  const testId = customerId ? 'seller-rate-cards' : 'default-rate-cards';

  const open = (card: TRateCard | 'new') => {
    clearError();
    form.resetFields();
    form.setFieldsValue(
      card === 'new'
        ? { valid_from: null, note: '', storage_free_days: 0, rates: {} }
        : {
            valid_from: dayjs(card.valid_from),
            note: card.note,
            storage_free_days: card.storage_free_days,
            rates: { ...card.rates },
          },
    );
    setEditing(card);
  };
  const submit = async () => {
    const v = await form.validateFields();
    const rates: Record<string, string> = {};
    for (const kind of RATE_CARD_KINDS) {
      const value = v.rates?.[kind]?.trim();
      if (value) rates[kind] = value;
    }
    const body: TRateCardInput = {
      customer_id: customerId,
      valid_from: v.valid_from?.format('YYYY-MM-DD') ?? '',
      rates,
      storage_free_days: v.storage_free_days ?? 0,
      note: v.note ?? '',
    };
    try {
      await save.mutateAsync({ id: editing && editing !== 'new' ? editing.id : null, body });
      message.success(t('cards.saved'));
      setEditing(null);
    } catch (err) {
      await showError(err);
    }
  };

  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      title={customerId ? t('cards.sellerTitle') : t('cards.defaultTitle')}
      data-testid={testId}
      extra={
        <Button size="small" onClick={() => open('new')} data-testid={`${testId}-add`}>
          {t('cards.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {customerId ? t('cards.sellerHint') : t('cards.defaultHint')} {t('cards.taxHint')}
      </Typography.Paragraph>
      <Table<TRateCard>
        rowKey="id"
        size="small"
        pagination={false}
        loading={cards.isLoading}
        dataSource={list}
        scroll={{ x: true }}
        locale={{ emptyText: t('cards.none') }}
        columns={[
          {
            title: t('cards.validFrom'),
            dataIndex: 'valid_from',
            key: 'valid_from',
            render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span>,
          },
          ...RATE_CARD_KINDS.map((kind) => ({
            title: t(`kinds.${kind}`),
            key: kind,
            render: (_: unknown, c: TRateCard) =>
              c.rates[kind] === undefined ? (
                <Typography.Text type="secondary">{t('cards.notCharged')}</Typography.Text>
              ) : (
                <span>
                  {twd(c.rates[kind])}
                  <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                    {t('cards.withTax', { amount: twd(withTax(c.rates[kind])) })}
                  </Typography.Text>
                </span>
              ),
          })),
          { title: t('cards.note'), dataIndex: 'note', key: 'note' },
          {
            key: 'actions',
            render: (_: unknown, c: TRateCard) =>
              c.charge_count > 0 ? (
                <Tag title={t('cards.inUseHint')}>{t('cards.inUse', { count: c.charge_count })}</Tag>
              ) : (
                <Space>
                  <Button size="small" onClick={() => open(c)} data-testid={`rate-card-edit-${c.valid_from}`}>
                    {t('cards.edit')}
                  </Button>
                  <Popconfirm
                    title={t('cards.deleteConfirm', { day: c.valid_from })}
                    onConfirm={() =>
                      remove
                        .mutateAsync(c.id)
                        .then(() => message.success(t('cards.deleted')))
                        .catch((err) => message.error(errorText(err)))
                    }
                  >
                    <Button size="small" danger>
                      {t('cards.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      <Modal
        open={!!editing}
        title={editing === 'new' ? t('cards.add') : t('cards.edit')}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        confirmLoading={save.isPending}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'rate-card-save' } as Record<`data-${string}`, string>}
      >
        {formError}
        <Form form={form} layout="vertical">
          <Form.Item name="valid_from" label={t('cards.validFrom')} rules={[{ required: true }]}>
            <DatePicker data-testid="rate-card-valid-from" />
          </Form.Item>
          <Typography.Paragraph type="secondary">{t('cards.taxHint')}</Typography.Paragraph>
          {RATE_CARD_KINDS.map((kind) => (
            <Form.Item
              key={kind}
              name={['rates', kind]}
              label={t(`kinds.${kind}`)}
              rules={[{ pattern: RATE, message: t('cards.rateInvalid') }]}
            >
              <Input prefix="NT$" placeholder={t('cards.notCharged')} data-testid={`rate-${kind}`} />
            </Form.Item>
          ))}
          <Form.Item name="storage_free_days" label={t('cards.freeDays')} extra={t('cards.freeDaysHint')}>
            <InputNumber min={0} max={365} precision={0} data-testid="rate-card-free-days" />
          </Form.Item>
          <Form.Item name="note" label={t('cards.note')}>
            <Input maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
