import { PrinterOutlined } from '@ant-design/icons';
import { outboundRoutes, type TBatch } from '@wms/contracts';
import { App, Button, Card, Dropdown, Input, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePage, useRouteMutation } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import { fetchBatch, outboundReads } from '../../api';
import { CarrierConsignmentsButton } from '../../components/carrier-consignments';
import { CarrierLabelsButton, usePrintCarrierLabels } from '../../components/carrier-labels';
import { useOrderLabels } from '../../components/labels';
import { OrderTable } from '../../components/order-table';
import { PackingStation } from '../../components/packing-station';
import '../../i18n';

function openPrint(kind: 'pick' | 'pick-A4' | 'doc' | 'rec', id: string, orderby = 'location') {
  const path =
    kind === 'pick'
      ? `/deliver-print-pick/${id}?paper=A5`
      : kind === 'pick-A4'
        ? `/deliver-print-pick-A4/${id}`
        : `/deliver-print-${kind}/${id}/${orderby}`;
  window.open(path, '_blank');
}

function BatchesTab() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const create = useRouteMutation(outboundRoutes.createBatch, { invalidates: outboundReads });
  const start = useRouteMutation(outboundRoutes.startBatchPicking, { invalidates: outboundReads });
  const printLabels = usePrintCarrierLabels();
  const [selected, setSelected] = useState<string[]>([]);
  const [remark, setRemark] = useState('');

  const onCreate = async () => {
    try {
      const b = await create.mutateAsync({ body: { order_ids: selected, remark: remark || undefined } });
      void message.success(t('opser.batchCreated', { number: b.number }));
      setSelected([]);
      setRemark('');
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const onStart = async (b: TBatch) => {
    try {
      await start.mutateAsync({ params: { id: b.id } });
      void message.success(t('opser.pickingStarted', { number: b.number }));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card size="small" title={t('opser.unbatched')}>
        <OrderTable
          testId="unbatched-orders"
          columns={[
            'number',
            'platform_order_number',
            'recipient_name',
            'logistics_provider',
            'consignment_number',
            'warehouse',
            'unit_count',
            'exported_at',
          ]}
          fixed={{ status: 'exported', in_batch: false }}
          showFilters={false}
          selected={selected}
          onSelect={(ids) => setSelected(ids)}
          toolbar={
            <Space wrap>
              <Input
                placeholder={l.field('remark')}
                value={remark}
                onChange={(e) => setRemark(e.target.value)}
                style={{ width: 180 }}
              />
              <CarrierConsignmentsButton selected={selected} />
              <CarrierLabelsButton selected={selected} />
              <Button
                type="primary"
                disabled={!selected.length}
                loading={create.isPending}
                onClick={() => void onCreate()}
                data-testid="batch-create"
              >
                {t('actions.batch')} {selected.length ? `(${selected.length})` : ''}
              </Button>
            </Space>
          }
        />
      </Card>
      <Card size="small" title={t('opser.batches')}>
        <DataTable<TBatch>
          {...routePage(outboundRoutes.listBatches)}
          rowKey="id"
          columns={[
            { title: t('opser.batchNumber'), dataIndex: 'number', key: 'number', sorter: true },
            { title: l.field('warehouse'), dataIndex: 'warehouse_code' },
            { title: t('opser.orders'), dataIndex: 'order_count', align: 'right' },
            { title: l.status('exported'), dataIndex: 'exported_count', align: 'right' },
            { title: l.status('online'), dataIndex: 'online_count', align: 'right' },
            { title: l.status('closed'), dataIndex: 'closed_count', align: 'right' },
            { title: l.field('unit_count'), dataIndex: 'unit_count', align: 'right' },
            { title: l.field('remark'), dataIndex: 'remark' },
            {
              title: t('opser.pickingStartedAt'),
              dataIndex: 'picking_started_at',
              render: (v: string | null) => (v ? formatDateTime(v) : ''),
            },
            {
              title: l.field('created_at'),
              dataIndex: 'created_at',
              key: 'created_at',
              sorter: true,
              render: (v: string) => formatDateTime(v),
            },
            {
              title: t('list.actions'),
              key: 'actions',
              fixed: 'right',
              noExport: true,
              render: (_, b) => (
                <Space size={0} wrap>
                  <Dropdown
                    menu={{
                      items: [
                        { key: 'pick', label: t('actions.printPickA5') },
                        { key: 'pick-A4', label: t('actions.printPickA4') },
                        { key: 'doc', label: t('actions.printDoc') },
                        { key: 'rec', label: t('actions.printRec') },
                        { key: 'labels', label: t('carrier.labels') },
                      ],
                      onClick: ({ key }) =>
                        key === 'labels'
                          ? void fetchBatch(b.id)
                              .then((d) => printLabels(d.orders.map((o) => o.id)))
                              .catch((e) => void message.error(errorText(e)))
                          : openPrint(key as 'pick', b.id),
                    }}
                  >
                    <Button type="link" size="small" icon={<PrinterOutlined />} data-testid={`batch-print-${b.number}`}>
                      {t('actions.print')}
                    </Button>
                  </Dropdown>
                  {b.exported_count + b.online_count > 0 ? (
                    <Link to={`/deliver-pick?batch=${b.id}`} data-testid={`batch-pick-${b.number}`}>
                      <Button type="link" size="small">
                        {t('pick.pickOnHandheld')}
                      </Button>
                    </Link>
                  ) : null}
                  {b.exported_count > 0 ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => void onStart(b)}
                      data-testid={`batch-start-${b.number}`}
                    >
                      {t('actions.startPicking')}
                    </Button>
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}

/** /deliver-opser: collection batches of exported orders with their pick lists, and the packing station. */
export default function DeliverOpserPage() {
  const { t } = useTranslation(['outbound', 'common']);
  return (
    <Tabs
      items={[
        { key: 'batches', label: t('opser.tabBatches'), children: <BatchesTab /> },
        {
          key: 'pack',
          label: <span data-testid="tab-packing">{t('opser.tabPacking')}</span>,
          children: <PackingStation />,
        },
      ]}
      destroyOnHidden
      tabBarExtraContent={<Typography.Text type="secondary">{t('opser.hint')}</Typography.Text>}
    />
  );
}
