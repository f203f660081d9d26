import type { TBalanceRow } from '@wms/contracts';
import { Button, Card, DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { screenTitle } from '../../../../routes/screen-title';
import { stockKeys } from '../../../../shared/api/stock-keys';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable, type TDataColumn } from '../../../../shared/table/data-table';
import { fetchProductLocations } from '../../api';
import { LotStateTag } from '../../components/stock-tags';
import '../../i18n';

/** The columns every pile list shares (/product-location, /location-stock, expiry transfer). */
export function usePileColumns(): TDataColumn<TBalanceRow>[] {
  const { t } = useTranslation('stock');
  return [
    { title: t('col.productNumber'), dataIndex: 'product_number', key: 'product_number', sorter: true },
    { title: t('col.productName'), dataIndex: 'product_name' },
    { title: t('col.warehouse'), dataIndex: 'warehouse_code' },
    { title: t('col.location'), dataIndex: 'location_code', key: 'location_code', sorter: true },
    {
      title: t('col.kind'),
      dataIndex: 'location_kind',
      render: (k: TBalanceRow['location_kind']) => t(`kind.${k}`),
      exportValue: (r) => t(`kind.${r.location_kind}`),
    },
    { title: t('col.shelf'), dataIndex: 'shelf_code' },
    { title: t('col.expiry'), dataIndex: 'expiry_date', key: 'expiry_date', sorter: true },
    { title: t('col.sellableUntil'), dataIndex: 'sellable_until' },
    {
      title: t('col.state'),
      dataIndex: 'state',
      render: (s: TBalanceRow['state']) => <LotStateTag state={s} />,
      exportValue: (r) => t(`state.${r.state}`),
    },
    { title: t('col.onHand'), dataIndex: 'on_hand', key: 'on_hand', sorter: true, align: 'right' },
    { title: t('col.reserved'), dataIndex: 'reserved', align: 'right' },
    { title: t('col.free'), dataIndex: 'free', align: 'right' },
  ];
}

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : undefined);

/** /product-location: every pile (product × location × lot) with its state; a pile can be transferred from here. */
export default function ProductLocationPage() {
  const { t } = useTranslation(['stock', 'nav']);
  const navigate = useNavigate();
  const columns = usePileColumns();
  return (
    <Card title={screenTitle('/product-location')}>
      <DataTable<TBalanceRow>
        queryKey={stockKeys.piles}
        fetchPage={(q, signal) =>
          fetchProductLocations(
            { ...q, expiry_from: day(q.expiry_from as Dayjs), expiry_to: day(q.expiry_to as Dayjs) },
            signal,
          )
        }
        rowKey="balance_id"
        excel={{ fileName: 'product-location' }}
        searchPlaceholder={t('filter.pileSearch')}
        filters={
          <>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('filter.warehouse')} aria-label={t('filter.warehouse')} />
            </Form.Item>
            <Form.Item name="location_kind">
              <Select
                allowClear
                placeholder={t('filter.kind')}
                aria-label={t('filter.kind')}
                style={{ minWidth: 130 }}
                options={(['sellable', 'defective', 'expired', 'staging'] as const).map((k) => ({
                  value: k,
                  label: t(`kind.${k}`),
                }))}
              />
            </Form.Item>
            <Form.Item name="expiry_from">
              <DatePicker placeholder={t('filter.expiryFrom')} aria-label={t('filter.expiryFrom')} />
            </Form.Item>
            <Form.Item name="expiry_to">
              <DatePicker placeholder={t('filter.expiryTo')} aria-label={t('filter.expiryTo')} />
            </Form.Item>
          </>
        }
        columns={[
          ...columns,
          {
            title: '',
            key: 'actions',
            noExport: true,
            render: (_, r) =>
              r.free > 0 ? (
                <Button
                  size="small"
                  onClick={() =>
                    void navigate(
                      `/stock-transfer?balance=${r.balance_id}&product=${r.product_id}&warehouse=${r.warehouse_id}`,
                    )
                  }
                >
                  {t('productLocation.transfer')}
                </Button>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
