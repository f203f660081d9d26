import type { TStatement, TStorageSnapshot, TUsageEvent, TUsageKind, TUsageLine } from '@wms/contracts';
import { usageRoutes } from '@wms/contracts';
import {
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Drawer,
  Input,
  Modal,
  Popover,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { downloadFile } from '../../../shared/download';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { postForm } from '../../../shared/forms/post-form';
import { twd } from '../../billing/money';
import { payStatementNewebPay, useSnapshot, useStatementActions, useStatementEvents, useStatements } from '../api';
import '../i18n';
import { DisputeModal, DisputesCard } from './disputes';

export const STATUS_COLOR: Record<TStatement['status'], string> = { issued: 'blue', paid: 'green', void: 'default' };

/** Where a seller opens the document of an event (a snapshot opens in place). */
const DOCUMENT_PAGE: Partial<Record<TUsageEvent['source_type'], string>> = {
  inbound_receipt: '/entry',
  outbound_order: '/deliver',
  return_receipt: '/return',
};

function SnapshotLink({ staff, event }: { staff: boolean; event: TUsageEvent }) {
  const { t } = useTranslation('usage');
  const [open, setOpen] = useState(false);
  const snap = useSnapshot(staff, open ? event.source_id : null);
  const s: TStorageSnapshot | undefined = snap.data;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={t('statements.snapshot', { day: event.day })}
      content={
        s ? (
          <Descriptions size="small" column={1} bordered data-testid="snapshot-detail">
            <Descriptions.Item label={t('statements.locations')}>
              {s.charged_locations} / {s.locations}
            </Descriptions.Item>
            <Descriptions.Item label={t('statements.units')}>
              {s.charged_units} / {s.units}
            </Descriptions.Item>
            <Descriptions.Item label={t('statements.litres')}>
              {s.charged_litres} / {s.litres}
            </Descriptions.Item>
            <Descriptions.Item label={t('statements.freeDays')}>{s.free_days}</Descriptions.Item>
          </Descriptions>
        ) : (
          '…'
        )
      }
    >
      <Typography.Link>{event.document_number}</Typography.Link>
    </Popover>
  );
}

/** The seller pays an issued statement: by card (the /tappay page) or at NewebPay (its form, posted). */
function PayButtons({ statement }: { statement: TStatement }) {
  const { t } = useTranslation('usage');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [going, setGoing] = useState(false);
  return (
    <>
      <Button
        type="primary"
        onClick={() => navigate(`/tappay?statement=${statement.id}`)}
        data-testid="statement-pay-card"
      >
        {t('statements.payCard', { amount: twd(statement.pay_amount) })}
      </Button>
      <Button
        loading={going}
        data-testid="statement-pay-newebpay"
        onClick={() => {
          setGoing(true);
          payStatementNewebPay(statement.id)
            .then((form) => postForm(form, '_self'))
            .catch((err) => {
              setGoing(false);
              message.error(errorText(err));
            });
        }}
      >
        {t('statements.payNewebPay')}
      </Button>
    </>
  );
}

/** One statement: its frozen lines and totals; a line opens its events, each with its document. */
export function StatementDetail({ statement, staff }: { statement: TStatement; staff: boolean }) {
  const { t } = useTranslation('usage');
  const [kind, setKind] = useState<TUsageKind | null>(null);
  const [page, setPage] = useState(1);
  const [disputing, setDisputing] = useState<{ kind: TUsageKind; event: TUsageEvent | null } | null>(null);
  const canDispute = !staff && statement.status !== 'void';
  const events = useStatementEvents(staff, statement.id, kind, page);
  const fileRoute = staff ? usageRoutes.crmStatementFile : usageRoutes.statementFile;
  const download = (format: 'pdf' | 'xlsx') =>
    downloadFile(fileRoute, `${statement.number}.${format}`, {
      params: { id: statement.id },
      query: { format },
    } as never);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="statement-detail">
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('statements.number')}>{statement.number}</Descriptions.Item>
        <Descriptions.Item label={t('statements.month')}>{statement.month}</Descriptions.Item>
        <Descriptions.Item label={t('statements.status')}>
          <Tag color={STATUS_COLOR[statement.status]}>{t(`statements.statuses.${statement.status}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('statements.issuedAt')}>{formatDateTime(statement.issued_at)}</Descriptions.Item>
        {statement.status === 'void' ? (
          <Descriptions.Item label={t('statements.voidReason')} span={2}>
            {statement.void_reason}
          </Descriptions.Item>
        ) : null}
        {statement.status === 'paid' ? (
          <Descriptions.Item label={t('statements.paidAt')} span={2}>
            {formatDateTime(statement.paid_at!)} {statement.payment_note}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <Space>
        {!staff && statement.status === 'issued' ? <PayButtons statement={statement} /> : null}
        <Button onClick={() => download('pdf')} data-testid="statement-pdf">
          {t('statements.pdf')}
        </Button>
        <Button onClick={() => download('xlsx')} data-testid="statement-xlsx">
          {t('statements.excel')}
        </Button>
      </Space>
      <Table<TUsageLine>
        rowKey="kind"
        size="small"
        pagination={false}
        dataSource={statement.lines}
        onRow={(l) => ({
          onClick: () => {
            setKind(l.kind);
            setPage(1);
          },
          style: { cursor: 'pointer' },
        })}
        rowClassName={(l) => (l.kind === kind ? 'ant-table-row-selected' : '')}
        columns={[
          {
            title: t('usage.kind'),
            dataIndex: 'kind',
            key: 'kind',
            render: (k: TUsageKind) => (
              <Typography.Link data-testid={`statement-line-${k}`}>{t(`kinds.${k}`)}</Typography.Link>
            ),
          },
          { title: t('usage.events'), dataIndex: 'events', key: 'events', align: 'right' },
          { title: t('usage.quantity'), dataIndex: 'quantity', key: 'quantity', align: 'right' },
          {
            title: t('usage.amount'),
            dataIndex: 'amount',
            key: 'amount',
            align: 'right',
            render: (v: string) => twd(v),
          },
          ...(canDispute
            ? [
                {
                  title: '',
                  key: 'dispute',
                  render: (_: unknown, l: TUsageLine) => (
                    <Button
                      size="small"
                      type="link"
                      data-testid={`statement-dispute-${l.kind}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setDisputing({ kind: l.kind, event: null });
                      }}
                    >
                      {t('disputes.dispute')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Descriptions size="small" column={2} bordered data-testid="statement-totals">
        <Descriptions.Item label={t('usage.subtotal')}>{twd(statement.subtotal)}</Descriptions.Item>
        <Descriptions.Item label={t('statements.minimumFee')}>{twd(statement.minimum_fee)}</Descriptions.Item>
        <Descriptions.Item label={t('usage.tax', { rate: Number(statement.tax_rate) * 100 })}>
          {twd(statement.tax)}
        </Descriptions.Item>
        <Descriptions.Item label={t('usage.total')}>
          <strong data-testid="statement-total">{twd(statement.total)}</strong>
        </Descriptions.Item>
      </Descriptions>
      {kind ? (
        <Table<TUsageEvent>
          rowKey="id"
          size="small"
          loading={events.isFetching}
          dataSource={events.data?.results ?? []}
          data-testid="statement-events"
          pagination={{ current: page, pageSize: 10, total: events.data?.count ?? 0, onChange: setPage }}
          columns={[
            { title: t('statements.day'), dataIndex: 'day', key: 'day' },
            {
              title: t('usage.document'),
              key: 'document',
              render: (_: unknown, e: TUsageEvent) => (
                <Space size={4}>
                  <Typography.Text type="secondary">{t(`usage.sources.${e.source_type}`)}</Typography.Text>
                  {e.source_type === 'storage_snapshot' ? (
                    <SnapshotLink staff={staff} event={e} />
                  ) : staff || e.source_type === 'correction' ? (
                    <span>{e.document_number}</span>
                  ) : (
                    <Link
                      to={`${DOCUMENT_PAGE[e.source_type]}?search=${encodeURIComponent(e.document_number)}`}
                      data-testid="statement-event-document"
                    >
                      {e.document_number}
                    </Link>
                  )}
                </Space>
              ),
            },
            { title: t('usage.quantity'), dataIndex: 'quantity', key: 'quantity', align: 'right' },
            {
              title: t('usage.unitPrice'),
              dataIndex: 'unit_price',
              key: 'unit_price',
              align: 'right',
              render: (v: string) => twd(v),
            },
            {
              title: t('usage.amount'),
              dataIndex: 'amount',
              key: 'amount',
              align: 'right',
              render: (v: string) => twd(v),
            },
            ...(canDispute
              ? [
                  {
                    title: '',
                    key: 'dispute',
                    render: (_: unknown, e: TUsageEvent) =>
                      e.source_type === 'correction' ? null : (
                        <Button
                          size="small"
                          type="link"
                          data-testid="statement-event-dispute"
                          onClick={() => setDisputing({ kind: e.kind, event: e })}
                        >
                          {t('disputes.dispute')}
                        </Button>
                      ),
                  },
                ]
              : []),
          ]}
        />
      ) : null}
      <DisputesCard statement={statement} staff={staff} />
      <DisputeModal statement={statement} target={disputing} onClose={() => setDisputing(null)} />
    </Space>
  );
}

/**
 * Statements of a month each: the seller's own past statements (/billing), or one seller's in the CRM (`customerId`)
 * where the staff issue a month, void a statement (with a reason, confirmed) and mark one paid.
 */
export function StatementsCard({ customerId = null }: { customerId?: string | null }) {
  const { t } = useTranslation('usage');
  const { message, modal } = App.useApp();
  const staff = !!customerId;
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const [month, setMonth] = useState<string>(dayjs().subtract(1, 'month').format('YYYY-MM'));
  const [voiding, setVoiding] = useState<TStatement | null>(null);
  const [reason, setReason] = useState('');
  const list = useStatements(customerId, page);
  const actions = useStatementActions();
  const open = list.data?.results.find((s) => s.id === openId) ?? null;
  const fail = (err: unknown) => message.error(errorText(err));

  return (
    <Card
      title={t('statements.title')}
      data-testid={staff ? 'crm-statements' : 'billing-statements'}
      extra={
        staff ? (
          <Space>
            <DatePicker
              picker="month"
              allowClear={false}
              value={dayjs(`${month}-01`)}
              onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
              data-testid="statement-month"
            />
            <Button
              type="primary"
              loading={actions.issue.isPending}
              data-testid="statement-issue"
              onClick={() =>
                modal.confirm({
                  title: t('statements.issueConfirm', { month }),
                  onOk: () =>
                    actions.issue
                      .mutateAsync({ customer_id: customerId, month })
                      .then((s) => {
                        message.success(t('statements.issued', { number: s.number }));
                        setOpenId(s.id);
                      })
                      .catch(fail),
                })
              }
            >
              {t('statements.issue')}
            </Button>
          </Space>
        ) : null
      }
    >
      <Table<TStatement>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.results ?? []}
        locale={{ emptyText: t('statements.none') }}
        pagination={{ current: page, pageSize: 10, total: list.data?.count ?? 0, onChange: setPage }}
        columns={[
          { title: t('statements.month'), dataIndex: 'month', key: 'month' },
          {
            title: t('statements.number'),
            dataIndex: 'number',
            key: 'number',
            render: (v: string, s: TStatement) => (
              <Typography.Link onClick={() => setOpenId(s.id)} data-testid={`statement-${s.number}`}>
                {v}
              </Typography.Link>
            ),
          },
          {
            title: t('statements.status'),
            dataIndex: 'status',
            key: 'status',
            render: (v: TStatement['status']) => <Tag color={STATUS_COLOR[v]}>{t(`statements.statuses.${v}`)}</Tag>,
          },
          { title: t('usage.total'), dataIndex: 'total', key: 'total', align: 'right', render: (v: string) => twd(v) },
          ...(staff
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, s: TStatement) =>
                    s.status === 'issued' ? (
                      <Space>
                        <Button
                          size="small"
                          data-testid={`statement-paid-${s.number}`}
                          onClick={() =>
                            modal.confirm({
                              title: t('statements.payConfirm', { number: s.number }),
                              onOk: () => actions.pay.mutateAsync({ id: s.id, note: '' }).catch(fail),
                            })
                          }
                        >
                          {t('statements.markPaid')}
                        </Button>
                        <Button
                          size="small"
                          danger
                          onClick={() => setVoiding(s)}
                          data-testid={`statement-void-${s.number}`}
                        >
                          {t('statements.void')}
                        </Button>
                      </Space>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      <Drawer
        open={!!open}
        onClose={() => setOpenId(null)}
        size="large"
        title={open ? t('statements.detailTitle', { number: open.number, month: open.month }) : ''}
      >
        {open ? <StatementDetail key={open.id} statement={open} staff={staff} /> : null}
      </Drawer>
      <Modal
        open={!!voiding}
        title={voiding ? t('statements.voidConfirm', { number: voiding.number }) : ''}
        okText={t('statements.void')}
        okButtonProps={{ danger: true, disabled: !reason.trim(), loading: actions.void.isPending }}
        onCancel={() => setVoiding(null)}
        onOk={() =>
          actions.void
            .mutateAsync({ id: voiding!.id, reason: reason.trim() })
            .then(() => {
              setVoiding(null);
              setReason('');
            })
            .catch(fail)
        }
      >
        <Typography.Paragraph>{t('statements.voidHint')}</Typography.Paragraph>
        <Input.TextArea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t('statements.voidReason')}
          maxLength={500}
          data-testid="statement-void-reason"
        />
      </Modal>
    </Card>
  );
}
