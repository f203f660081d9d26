import { crmRoutes, type TCrmStockRow, type TStockReason } from '@wms/contracts';
import { Button, DatePicker, Drawer, Form, Input, Select, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRoute } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { DataTable } from '../../../../shared/table/data-table';
import { ReasonTag } from '../../../stock/components/stock-tags';
import { useCustomerOptions } from '../../api';

function Movements({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('crm');
  const moves = useRoute(crmRoutes.stockMovements, id ? { params: { id } } : null);
  return (
    <Drawer open={!!id} onClose={onClose} size="large" title={t('stock.movements')} destroyOnHidden>
      <Table
        rowKey="id"
        size="small"
        loading={moves.isLoading}
        dataSource={moves.data ?? []}
        columns={[
          { title: t('customer.when'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
          {
            title: t('stock.reason'),
            dataIndex: 'reason',
            render: (v: TStockReason) => <ReasonTag reason={v} />,
          },
          { title: t('stock.document'), dataIndex: 'document_number' },
          { title: t('stock.quantity'), dataIndex: 'quantity' },
          { title: t('stock.after'), dataIndex: 'on_hand_after' },
        ]}
      />
    </Drawer>
  );
}

/** /crm/stock: stock piles across sellers (read-only: operations stay in the seller's workspace). */
export default function CrmStockPage() {
  const { t } = useTranslation('crm');
  const customers = useCustomerOptions();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <DataTable<TCrmStockRow>
        {...routePage(crmRoutes.stock, {}, (q) => {
          const { expiry_before, ...rest } = q as typeof q & { expiry_before?: Dayjs | string };
          const day =
            expiry_before && typeof expiry_before !== 'string' ? expiry_before.format('YYYY-MM-DD') : expiry_before;
          return { ...rest, ...(day ? { expiry_before: day } : {}) };
        })}
        rowKey="id"
        searchPlaceholder={t('stock.search')}
        excel={{ fileName: 'stock' }}
        filters={
          <>
            <Form.Item name="customer_id">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder={t('customer.name')}
                style={{ width: 180 }}
                options={customers.data ?? []}
              />
            </Form.Item>
            <Form.Item name="warehouse">
              <Input allowClear placeholder={t('rack.warehouse')} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="expiry_before">
              <DatePicker placeholder={t('stock.expiryBefore')} />
            </Form.Item>
          </>
        }
        columns={[
          { title: t('customer.name'), dataIndex: 'customer_name', key: 'customer_name', sorter: true },
          { title: t('rack.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('rack.location'), dataIndex: 'location_code', key: 'location_code', sorter: true },
          { title: t('stock.product'), dataIndex: 'product_number', key: 'product_number', sorter: true },
          { title: t('stock.productName'), dataIndex: 'product_name' },
          { title: t('stock.expiry'), dataIndex: 'expiry_date', key: 'expiry_date', sorter: true },
          { title: t('stock.onHand'), dataIndex: 'on_hand', key: 'on_hand', sorter: true },
          { title: t('stock.reserved'), dataIndex: 'reserved' },
          {
            key: 'moves',
            noExport: true,
            render: (_: unknown, r) => (
              <Button size="small" onClick={() => setOpen(r.id)}>
                {t('stock.movements')}
              </Button>
            ),
          },
        ]}
      />
      <Movements id={open} onClose={() => setOpen(null)} />
    </>
  );
}
