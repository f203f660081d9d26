import { PlusOutlined, PrinterOutlined, UploadOutlined } from '@ant-design/icons';
import { DEFAULT_COLUMNS, outboundRoutes, type TOrder, type TOrderAction, type TOrderDetail } from '@wms/contracts';
import { App, Button, Dropdown, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { refreshOutboundWithStock, useColumnSettings } from '../../api';
import { ACTIONS_OF, abnormalText, useOrderLabels } from '../../components/labels';
import { OrderTable, prefetchFirstPage } from '../../components/order-table';
import { ShipBy } from '../../components/ship-by';
import '../../i18n';
import { i18n } from '../../../../i18n/i18n';

// The first page shows the list only: the drawer and the form load when first opened, the import dialog right after.
const OrderDetailDrawer = lazy(async () => ({
  default: (await import('../../components/order-detail')).OrderDetailDrawer,
}));
const OrderFormModal = lazy(async () => ({ default: (await import('../../components/order-form')).OrderFormModal }));
// So does the import dialog (upload, job progress, row errors): its button stands in until then.
const ImportOrdersButton = lazy(async () => ({
  default: (await import('../../components/import-orders')).ImportOrdersButton,
}));
// Texts of the page (and of the import button's dialog) load while the app checks the session, not one after the
// other once the page renders.
void i18n.loadNamespaces(['outbound', 'shared']);
/** A dashboard tile opens the list filtered: `/deliver?status=pending_export`. */
const URL_FILTERS = ['status', 'channel', 'abnormal', 'search', 'due'] as const;
// Likewise the first page of orders: its answer is usually in before the page has rendered.
prefetchFirstPage(URL_FILTERS);

const BULK: TOrderAction[] = ['export', 'cancel', 'request_cancel_export', 'grant_cancel_export'];

/** The print screens of a selection of orders (`?ids=`), opened in a new tab. */
export function openSelectionPrint(kind: 'pick' | 'pick-A4' | 'doc' | 'rec', ids: string[], orderby = 'number') {
  const path =
    kind === 'pick'
      ? '/deliver-print-pick/selection'
      : kind === 'pick-A4'
        ? '/deliver-print-pick-A4/selection'
        : `/deliver-print-${kind}/selection/${orderby}`;
  window.open(`${path}?ids=${ids.join(',')}${kind === 'pick' ? '&paper=A5' : ''}`, '_blank');
}

/** /deliver: the order list with filters, bulk export/cancel/print, import, create, detail and edit while pending. */
export default function DeliverPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message, modal } = App.useApp();
  const settings = useColumnSettings();
  const bulk = useRouteMutation(outboundRoutes.bulkTransition, { onSettled: refreshOutboundWithStock });
  const [selected, setSelected] = useState<string[]>([]);
  const [selectedRows, setSelectedRows] = useState<TOrder[]>([]);
  // Only the actions that apply to a selected order (a pending order offers no 申請／同意取消轉出).
  const bulkActions = BULK.filter(
    (a) => selectedRows.length < selected.length || selectedRows.some((o) => ACTIONS_OF[o.status].includes(a)),
  );
  // `?order=<id>` opens that order (ECPay's store map sends the browser back here after the buyer's choice).
  const [search] = useSearchParams();
  const [detail, setDetail] = useState<string | null>(() => search.get('order'));
  // Mounted from its first opening on (so that closing it still animates).
  const [detailUsed, setDetailUsed] = useState(() => !!search.get('order'));
  const [editing, setEditing] = useState<TOrderDetail | 'new' | null>(null);

  const runBulk = async (action: TOrderAction) => {
    try {
      const r = await bulk.mutateAsync({ body: { action, ids: selected } });
      const failures = r.results.filter((x) => !x.ok);
      if (failures.length === 0) void message.success(t('list.bulkDone', { ok: r.succeeded, failed: r.failed }));
      else
        modal.warning({
          title: t('list.bulkDone', { ok: r.succeeded, failed: r.failed }),
          content: (
            <Space orientation="vertical" data-testid="bulk-failures">
              {failures.map((f) => (
                <span key={f.id}>
                  {f.number ?? f.id}: {f.error ? abnormalText(f.error, l.lang) : ''}
                </span>
              ))}
            </Space>
          ),
        });
      setSelected([]);
      setSelectedRows([]);
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const columns = settings.data?.deliver_list ?? DEFAULT_COLUMNS.deliver_list;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <OrderTable
        testId="order-table"
        urlFilters={URL_FILTERS}
        dueFilter
        columns={columns}
        selected={selected}
        onSelect={(ids, rows) => {
          setSelected(ids);
          setSelectedRows(rows.filter(Boolean));
        }}
        toolbar={
          <Space>
            <Suspense fallback={<Button icon={<UploadOutlined />}>{t('actions.import')}</Button>}>
              <ImportOrdersButton />
            </Suspense>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="order-new">
              {t('actions.new')}
            </Button>
          </Space>
        }
        extra={[
          {
            key: 'ship_by',
            title: t('ship.shipBy'),
            // Beside the actions, always in view: the floor works the list by it.
            fixed: 'right',
            render: (_, o: TOrder) => <ShipBy order={o} />,
          },
          {
            key: 'actions',
            title: t('list.actions'),
            fixed: 'right',
            render: (_, o: TOrder) => (
              <Button
                type="link"
                size="small"
                onClick={() => {
                  setDetailUsed(true);
                  setDetail(o.id);
                }}
                data-testid={`order-open-${o.platform_order_number ?? o.number}`}
              >
                {t('actions.detail')}
              </Button>
            ),
          },
        ]}
      />
      {selected.length ? (
        <Space
          wrap
          data-testid="bulk-bar"
          style={{ position: 'sticky', bottom: 0, background: 'var(--ant-color-bg-container)', padding: 8, zIndex: 2 }}
        >
          {/* Not Typography.Text: it would load its editing parts (text area, icons) with the page. */}
          <strong>{t('list.selected', { count: selected.length })}</strong>
          {bulkActions.map((a) => (
            <Button
              key={a}
              loading={bulk.isPending}
              onClick={() => void runBulk(a)}
              danger={a === 'cancel'}
              data-testid={`bulk-${a}`}
            >
              {t(`actions.${a}`)}
            </Button>
          ))}
          <Dropdown
            menu={{
              items: [
                { key: 'pick', label: t('actions.printPickA5') },
                { key: 'pick-A4', label: t('actions.printPickA4') },
                { key: 'doc', label: t('actions.printDoc') },
                { key: 'rec', label: t('actions.printRec') },
              ],
              onClick: ({ key }) => openSelectionPrint(key as 'pick', selected),
            }}
          >
            <Button icon={<PrinterOutlined />}>{t('actions.print')}</Button>
          </Dropdown>
          <Button
            onClick={() => {
              setSelected([]);
              setSelectedRows([]);
            }}
          >
            {t('list.clearSelection')}
          </Button>
        </Space>
      ) : null}
      <Suspense fallback={null}>
        {detailUsed ? (
          <OrderDetailDrawer
            id={detail}
            onClose={() => setDetail(null)}
            onEdit={(o) => {
              setEditing(o);
            }}
          />
        ) : null}
        {editing ? (
          <OrderFormModal open editing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
        ) : null}
      </Suspense>
    </Space>
  );
}
