import type { TDispute, TStatement, TUsageEvent, TUsageKind } from '@wms/contracts';
import {
  App,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/forms/error-text';
import { twd } from '../../billing/money';
import { useDisputeActions, useDisputes, useStatementEvents } from '../api';
import '../i18n';

const DISPUTE_COLOR: Record<TDispute['status'], string> = { open: 'orange', corrected: 'green', rejected: 'default' };

/** The seller disputes a line (or one of its events) of a statement: a reason, filed as a support request. */
export function DisputeModal({
  statement,
  target,
  onClose,
}: {
  statement: TStatement;
  target: { kind: TUsageKind; event: TUsageEvent | null } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('usage');
  const { message } = App.useApp();
  const [reason, setReason] = useState('');
  const actions = useDisputeActions();
  return (
    <Modal
      open={!!target}
      title={target ? t('disputes.title', { kind: t(`kinds.${target.kind}`) }) : ''}
      okText={t('disputes.send')}
      okButtonProps={
        { disabled: !reason.trim(), loading: actions.open.isPending, 'data-testid': 'dispute-send' } as never
      }
      onCancel={onClose}
      onOk={() =>
        actions.open
          .mutateAsync({
            id: statement.id,
            body: { kind: target!.kind, event_id: target!.event?.id, reason: reason.trim() },
          })
          .then(() => {
            message.success(t('disputes.sent'));
            setReason('');
            onClose();
          })
          .catch((err) => message.error(errorText(err)))
      }
    >
      {target?.event ? (
        <Typography.Paragraph>
          {target.event.document_number} · {target.event.day} · {target.event.quantity} · {twd(target.event.amount)}
        </Typography.Paragraph>
      ) : null}
      <Typography.Paragraph type="secondary">{t('disputes.hint')}</Typography.Paragraph>
      <Input.TextArea
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder={t('disputes.reason')}
        maxLength={2000}
        rows={4}
        data-testid="dispute-reason"
      />
    </Modal>
  );
}

/** The staff's correction of a dispute: the event corrected, the difference, the reason, re-issue or next draft. */
function CorrectModal({
  statement,
  dispute,
  onClose,
}: {
  statement: TStatement;
  dispute: TDispute;
  onClose: () => void;
}) {
  const { t } = useTranslation('usage');
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const actions = useDisputeActions();
  const events = useStatementEvents(true, statement.id, dispute.kind, 1);
  return (
    <Modal
      open
      title={t('disputes.correct')}
      okText={t('disputes.correct')}
      okButtonProps={{ loading: actions.correct.isPending, 'data-testid': 'correct-save' } as never}
      onCancel={onClose}
      onOk={async () => {
        const v = await form.validateFields();
        actions.correct
          .mutateAsync({
            id: dispute.id,
            body: {
              event_id: v.event_id,
              quantity: v.quantity ?? 0,
              amount: String(v.amount).trim(),
              reason: v.reason.trim(),
              reissue: !!v.reissue,
            },
          })
          .then((r) => {
            message.success(
              r.statement ? t('disputes.reissued', { number: r.statement.number }) : t('disputes.corrected'),
            );
            onClose();
          })
          .catch((err) => message.error(errorText(err)));
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ event_id: dispute.event_id ?? undefined, quantity: 0 }}>
        <Form.Item name="event_id" label={t('disputes.event')} rules={[{ required: true }]}>
          <Select
            data-testid="correct-event"
            options={(events.data?.results ?? []).map((e) => ({
              value: e.id,
              label: `${e.document_number} · ${e.day} · ${e.quantity} · ${twd(e.amount)}`,
            }))}
          />
        </Form.Item>
        <Space>
          <Form.Item name="quantity" label={t('disputes.quantity')}>
            <InputNumber data-testid="correct-quantity" />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('disputes.amount')}
            rules={[{ required: true, pattern: /^-?\d{1,12}(\.\d{1,4})?$/, message: t('disputes.amountHint') }]}
          >
            <Input data-testid="correct-amount" placeholder="-5" />
          </Form.Item>
        </Space>
        <Form.Item name="reason" label={t('disputes.answer')} rules={[{ required: true, whitespace: true }]}>
          <Input.TextArea maxLength={500} data-testid="correct-reason" />
        </Form.Item>
        {statement.status === 'issued' ? (
          <Form.Item name="reissue" valuePropName="checked">
            <Checkbox data-testid="correct-reissue">{t('disputes.reissue')}</Checkbox>
          </Form.Item>
        ) : (
          <Typography.Text type="secondary">{t('disputes.nextDraft')}</Typography.Text>
        )}
      </Form>
    </Modal>
  );
}

/** A statement's disputes: status and answer; the staff correct or reject the open ones. */
export function DisputesCard({ statement, staff }: { statement: TStatement; staff: boolean }) {
  const { t } = useTranslation('usage');
  const { message, modal } = App.useApp();
  const list = useDisputes(staff, statement.id);
  const actions = useDisputeActions();
  const [correcting, setCorrecting] = useState<TDispute | null>(null);
  const rows = list.data?.results ?? [];
  if (!rows.length) return null;
  return (
    <Card size="small" title={t('disputes.list')} data-testid="statement-disputes">
      <Table<TDispute>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t('usage.kind'), dataIndex: 'kind', key: 'kind', render: (k: TUsageKind) => t(`kinds.${k}`) },
          { title: t('disputes.reason'), dataIndex: 'reason', key: 'reason' },
          {
            title: t('statements.status'),
            dataIndex: 'status',
            key: 'status',
            render: (v: TDispute['status']) => <Tag color={DISPUTE_COLOR[v]}>{t(`disputes.statuses.${v}`)}</Tag>,
          },
          {
            title: t('disputes.answer'),
            key: 'answer',
            render: (_: unknown, d) =>
              d.correction
                ? `${d.answer} (${d.correction.quantity} · ${twd(d.correction.amount)} · ${d.correction.day})`
                : d.answer,
          },
          ...(staff
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, d: TDispute) =>
                    d.status === 'open' ? (
                      <Space>
                        <Button
                          size="small"
                          type="primary"
                          onClick={() => setCorrecting(d)}
                          data-testid="dispute-correct"
                        >
                          {t('disputes.correct')}
                        </Button>
                        <Button
                          size="small"
                          onClick={() => {
                            let answer = '';
                            modal.confirm({
                              title: t('disputes.reject'),
                              content: <Input.TextArea onChange={(e) => (answer = e.target.value)} maxLength={2000} />,
                              onOk: () =>
                                actions.reject
                                  .mutateAsync({ id: d.id, answer: answer.trim() || t('disputes.rejectedDefault') })
                                  .catch((err) => message.error(errorText(err))),
                            });
                          }}
                        >
                          {t('disputes.reject')}
                        </Button>
                      </Space>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      {correcting ? (
        <CorrectModal statement={statement} dispute={correcting} onClose={() => setCorrecting(null)} />
      ) : null}
    </Card>
  );
}
