import { PlusOutlined } from '@ant-design/icons';
import { ADVICE_WINDOWS, type TPurchaseAdviceRow } from '@wms/contracts';
import { App, Button, Card, Form, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { screenTitle } from '../../../../routes/screen-title';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import type { TReceiptDraft } from '../../../inbound/components/receipt-form';
import { analysisKeys, downloadPurchaseAdvice, fetchPurchaseAdvice } from '../../api';
import '../../i18n';

const rowKey = (r: TPurchaseAdviceRow) => `${r.product_id}:${r.warehouse_id ?? '-'}`;

/** /purchase-advice: what to buy per product and warehouse, from the outbound of a window and the stock on hand. */
export default function PurchaseAdvicePage() {
  const { t } = useTranslation(['analysis', 'nav']);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<TPurchaseAdviceRow[]>([]);
  // The chosen rows become the lines of a new inbound receipt (advised quantity, at least 1), opened on /entry.
  const createReceipt = () => {
    const warehouses = new Set(chosen.map((r) => r.warehouse_id).filter(Boolean));
    if (warehouses.size > 1) {
      void message.warning(t('advice.oneWarehouse'));
      return;
    }
    const receiptDraft: TReceiptDraft = {
      warehouse_id: [...warehouses][0] ?? null,
      lines: chosen.map((r) => ({
        product_id: r.product_id,
        quantity: Math.max(1, r.advised),
        label: `${r.product_number} ${r.product_name}`,
        shelf_life: r.shelf_life,
      })),
    };
    void navigate('/entry', { state: { receiptDraft } });
  };
  const yesNo = [
    { value: 'true', label: t('filter.yes') },
    { value: 'false', label: t('filter.no') },
  ];
  return (
    <Card title={screenTitle('/purchase-advice')}>
      <DataTable<TPurchaseAdviceRow>
        queryKey={analysisKeys.purchaseAdvice}
        fetchPage={fetchPurchaseAdvice}
        rowKey={rowKey}
        excel={{ fileName: 'purchase-advice', download: (q) => downloadPurchaseAdvice(q) }}
        searchPlaceholder={t('filter.productSearch')}
        urlFilters={['below_safety', 'to_buy', 'warehouse_id']}
        rowSelection={{
          selectedRowKeys: chosen.map(rowKey),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => setChosen(rows.filter(Boolean)),
        }}
        toolbar={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={chosen.length === 0}
            onClick={createReceipt}
            data-testid="advice-create-receipt"
          >
            {t('advice.createReceipt')}
            {chosen.length ? ` (${t('advice.selected', { count: chosen.length })})` : ''}
          </Button>
        }
        filters={
          <>
            <Form.Item name="window" initialValue={30}>
              <Select
                aria-label={t('filter.window')}
                style={{ minWidth: 100 }}
                options={ADVICE_WINDOWS.map((n) => ({ value: n, label: t('filter.windowDays', { n }) }))}
              />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('filter.warehouse')} aria-label={t('filter.warehouse')} />
            </Form.Item>
            <Form.Item name="below_safety">
              <Select
                allowClear
                placeholder={t('filter.belowSafety')}
                aria-label={t('filter.belowSafety')}
                options={yesNo}
                style={{ minWidth: 140 }}
              />
            </Form.Item>
            <Form.Item name="to_buy">
              <Select
                allowClear
                placeholder={t('filter.toBuy')}
                aria-label={t('filter.toBuy')}
                options={yesNo}
                style={{ minWidth: 110 }}
              />
            </Form.Item>
          </>
        }
        columns={[
          { title: t('col.productNumber'), dataIndex: 'product_number' },
          {
            title: t('col.productName'),
            dataIndex: 'product_name',
            render: (v: string, r) => (
              <>
                {v} {r.below_safety ? <Tag color="red">{t('tag.belowSafety')}</Tag> : null}
              </>
            ),
          },
          { title: t('col.warehouse'), dataIndex: 'warehouse_code', render: (v: string | null) => v ?? '—' },
          {
            title: t('col.advised'),
            dataIndex: 'advised',
            align: 'right',
            render: (v: number) => <strong style={{ color: v > 0 ? '#1677ff' : undefined }}>{v}</strong>,
          },
          { title: t('col.daysLeft'), dataIndex: 'days_left', align: 'right', render: (v: number | null) => v ?? '—' },
          { title: t('col.unitsOut'), dataIndex: 'units_out', align: 'right' },
          { title: t('col.avgDailyOut'), dataIndex: 'avg_daily_out', align: 'right' },
          { title: t('col.onHand'), dataIndex: 'on_hand', align: 'right' },
          { title: t('col.available'), dataIndex: 'available', align: 'right' },
          { title: t('col.incoming'), dataIndex: 'incoming', align: 'right' },
          { title: t('col.safetyStock'), dataIndex: 'safety_stock', align: 'right' },
          { title: t('col.stockingDays'), dataIndex: 'stocking_days', align: 'right' },
        ]}
      />
    </Card>
  );
}
