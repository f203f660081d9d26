import { carrierRoutes, outboundRoutes, type TOrderAction, type TOrderDetail } from '@wms/contracts';
import { Alert, App, Button, Descriptions, Drawer, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoute, useRouteMutation } from '../../../shared/api/route-query';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { PageLoading } from '../../../shared/ui/page-loading';
import { refreshOutboundWithStock } from '../api';
import { OrderCvsStore } from './cvs-store';
import { ACTIONS_OF, abnormalText, OrderStatusTag, useOrderLabels } from './labels';

/** Which actions a status offers (labels.tsx: the list's bulk bar needs it without loading this drawer). */
export { ACTIONS_OF };

/** An order: every field, its lines, what is reserved where, packing progress, IMEIs, packaging; its actions. */
export function OrderDetailDrawer(props: {
  id: string | null;
  onClose: () => void;
  onEdit: (o: TOrderDetail) => void;
}) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const order = useRoute(outboundRoutes.getOrder, props.id ? { params: { id: props.id } } : null);
  const tracking = useRoute(carrierRoutes.orderCarrierEvents, props.id ? { params: { id: props.id } } : null);
  // A refused export is written on the order (its reason shows in the list): refresh either way.
  const transition = useRouteMutation(outboundRoutes.transitionOrder, { onSettled: refreshOutboundWithStock });
  const o = order.data;

  const act = async (action: TOrderAction) => {
    if (!o) return;
    try {
      await transition.mutateAsync({ params: { id: o.id }, body: { action } });
      void message.success(t(`done.${action}`));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const field = (key: string, value?: React.ReactNode) => {
    const raw = o?.[key as keyof TOrderDetail];
    return { key, label: l.field(key), children: value ?? (raw === null || raw === '' ? '—' : String(raw)) };
  };

  return (
    <Drawer
      open={!!props.id}
      onClose={props.onClose}
      size="large"
      title={o ? t('detail.title', { number: o.number }) : ''}
      extra={
        o ? (
          <Space wrap>
            {o.status === 'pending_export' ? (
              <Button onClick={() => props.onEdit(o)} data-testid="order-edit">
                {t('actions.edit')}
              </Button>
            ) : null}
            {ACTIONS_OF[o.status].map((a) => (
              <Button
                key={a}
                type={a === 'export' ? 'primary' : 'default'}
                danger={a === 'cancel'}
                loading={transition.isPending}
                onClick={() => void act(a)}
                data-testid={`order-action-${a}`}
              >
                {t(`actions.${a}`)}
              </Button>
            ))}
          </Space>
        ) : null
      }
    >
      {!o ? (
        <PageLoading />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="order-detail">
          {o.abnormal ? (
            <Alert
              type="warning"
              showIcon
              title={t('detail.abnormal')}
              description={abnormalText(o.abnormal, l.lang)}
            />
          ) : null}
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, md: 2 }}
            items={[
              field('status', <OrderStatusTag status={o.status} />),
              field('platform_order_number'),
              field('third_party_number'),
              field('platform', o.platform_code ? `${o.platform_code} ${o.platform_name ?? ''}` : '—'),
              field('channel', l.channel(o.channel)),
              field('category', l.category(o.category)),
              field('is_cross_border', o.is_cross_border ? t('values.yes') : t('values.no')),
              field('recipient_name'),
              field('recipient_phone'),
              field('recipient_mobile'),
              field('recipient_postcode'),
              field('recipient_address'),
              field('sender_name'),
              field('sender_phone'),
              field('sender_postcode'),
              field('sender_address'),
              field('warehouse', o.warehouse_code ?? '—'),
              field(
                'logistics_provider',
                o.logistics_provider_code ? `${o.logistics_provider_code} ${o.logistics_provider_name ?? ''}` : '—',
              ),
              field('consignment_number'),
              field('shipping_date'),
              field('piece_count'),
              field('volume'),
              field('arrival_date'),
              field('arrival_time_slot', l.slot(o.arrival_time_slot) || '—'),
              field('cod', o.cod ? `${t('values.yes')} ${o.cod_amount ?? ''}` : t('values.no')),
              field('total_amount'),
              field('batch', o.batch_number ?? '—'),
              field('shipping_remark'),
              field('created_at', formatDateTime(o.created_at)),
              field('closed_at', o.closed_at ? formatDateTime(o.closed_at) : '—'),
            ]}
          />
          <Typography.Title level={5}>{t('form.lines')}</Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={o.lines}
            columns={[
              { title: '#', dataIndex: 'line_no', width: 50 },
              { title: l.field('product'), dataIndex: 'product_number' },
              { title: l.field('product_name'), dataIndex: 'product_name' },
              {
                title: l.field('type'),
                dataIndex: 'product_type',
                render: (v: string) => t(`productType.${v as 'single'}`),
              },
              { title: l.field('quantity'), dataIndex: 'quantity', align: 'right' },
              { title: l.field('unit_price'), dataIndex: 'unit_price', align: 'right' },
            ]}
          />
          <Typography.Title level={5}>{t('detail.allocations')}</Typography.Title>
          {o.allocations.length ? (
            <Table
              size="small"
              rowKey={(a) => `${a.location_id}-${a.product_id}-${a.expiry_date}`}
              pagination={false}
              dataSource={o.allocations}
              data-testid="order-allocations"
              columns={[
                { title: t('print.location'), dataIndex: 'location_code' },
                { title: l.field('product'), dataIndex: 'product_number' },
                { title: l.field('product_name'), dataIndex: 'product_name' },
                { title: l.field('expiry_date'), dataIndex: 'expiry_date' },
                { title: l.field('quantity'), dataIndex: 'quantity', align: 'right' },
              ]}
            />
          ) : (
            <Typography.Text type="secondary">{t('detail.noAllocation')}</Typography.Text>
          )}
          {o.serials.length ? (
            <>
              <Typography.Title level={5}>{t('detail.serials')}</Typography.Title>
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={o.serials}
                columns={[
                  { title: l.field('serial'), dataIndex: 'serial' },
                  { title: l.field('product'), dataIndex: 'product_number' },
                ]}
              />
            </>
          ) : null}
          {o.packaging.length ? (
            <>
              <Typography.Title level={5}>{t('detail.packaging')}</Typography.Title>
              <Table
                size="small"
                rowKey="packaging_material_id"
                pagination={false}
                dataSource={o.packaging}
                columns={[
                  { title: l.field('code'), dataIndex: 'code' },
                  { title: l.field('name'), dataIndex: 'name' },
                  { title: l.field('quantity'), dataIndex: 'quantity', align: 'right' },
                ]}
              />
            </>
          ) : null}
          <OrderCvsStore order={o} />
          {tracking.data?.results.length ? (
            <>
              <Typography.Title level={5}>{t('carrier.tracking')}</Typography.Title>
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={tracking.data.results}
                data-testid="order-carrier-events"
                columns={[
                  {
                    title: t('carrier.statusAt'),
                    dataIndex: 'status_at',
                    render: (v: string, e) => v || formatDateTime(e.created_at),
                  },
                  { title: t('carrier.statusCode'), dataIndex: 'status_code' },
                  {
                    title: t('carrier.statusText'),
                    dataIndex: 'status_text',
                    render: (v: string, e) => (
                      <Space size={4}>
                        {e.kind ? (
                          <Tag color={e.kind === 'returned' ? 'red' : e.kind === 'picked_up' ? 'green' : 'blue'}>
                            {t(`cvs.kind.${e.kind}`)}
                          </Tag>
                        ) : null}
                        {v}
                      </Space>
                    ),
                  },
                  { title: l.field('consignment_number'), dataIndex: 'booking_note' },
                ]}
              />
            </>
          ) : null}
        </Space>
      )}
    </Drawer>
  );
}
