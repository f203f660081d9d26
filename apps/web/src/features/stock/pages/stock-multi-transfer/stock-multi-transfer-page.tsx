import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { TBalanceRow } from '@wms/contracts';
import { Alert, App, Button, Card, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen } from '../../../../shared/handheld/handheld';
import { lookupProduct } from '../../../../shared/pickers/api';
import { LocationSelect } from '../../../../shared/pickers/location-select';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { fetchPiles, useMultiTransfer } from '../../api';
import { LotStateTag } from '../../components/stock-tags';
import '../../i18n';

interface TLine {
  key: string;
  pile: TBalanceRow;
  quantity: number | null;
  to: string | undefined;
}

/** /stock-multi-transfer: collect lines (scan a product, add its piles), set quantity and destination; all or nothing. */
export default function StockMultiTransferPage() {
  const { t } = useTranslation(['stock', 'nav', 'common']);
  const { message } = App.useApp();
  const transfer = useMultiTransfer();
  const [warehouseId, setWarehouseId] = useState<string>();
  const [code, setCode] = useState('');
  const [found, setFound] = useState<TBalanceRow[]>([]);
  const [lines, setLines] = useState<TLine[]>([]);
  const [remark, setRemark] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onScan = async (c: string) => {
    setProblem(null);
    try {
      const p = await lookupProduct(c);
      const piles = (await fetchPiles({ product_id: p.id, warehouse_id: warehouseId })).results.filter(
        (x) => x.free > 0,
      );
      setFound(piles);
      if (piles.length === 0) {
        setProblem(t('transfer.noPiles'));
        return false;
      }
      return true;
    } catch (err) {
      setFound([]);
      setProblem(errorText(err));
      return false;
    }
  };
  const add = (pile: TBalanceRow) =>
    setLines((ls) => [...ls, { key: `${pile.balance_id}:${Date.now()}`, pile, quantity: pile.free, to: undefined }]);
  const update = (key: string, patch: Partial<TLine>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const submit = async () => {
    setProblem(null);
    if (lines.some((l) => !l.to || !l.quantity)) return setProblem(t('multi.incomplete'));
    try {
      const res = await transfer.mutateAsync({
        lines: lines.map((l) => ({ balance_id: l.pile.balance_id, to_location_id: l.to!, quantity: l.quantity! })),
        remark: remark || undefined,
      });
      void message.success(t('transfer.done', { number: res.number, units: res.unit_count }));
      setLines([]);
      setFound([]);
      setCode('');
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  return (
    <FloorScreen>
      <Card title={screenTitle('/stock-multi-transfer')}>
        <Space wrap style={{ marginBottom: 16 }}>
          <WarehouseSelect value={warehouseId} onChange={setWarehouseId} autoPick aria-label={t('filter.warehouse')} />
          <ScanInput
            autoFocus
            value={code}
            onChange={setCode}
            onScan={onScan}
            placeholder={t('transfer.scanProduct')}
            aria-label={t('transfer.scanProduct')}
            data-testid="multi-product"
          />
        </Space>
        {found.length > 0 ? (
          <Space wrap style={{ marginBottom: 16 }}>
            {found.map((p) => (
              <Button key={p.balance_id} icon={<PlusOutlined />} onClick={() => add(p)} data-testid="multi-add-pile">
                {p.product_number} · {p.location_code}
                {p.expiry_date ? ` · ${p.expiry_date}` : ''} · {t('transfer.free', { count: p.free })}
              </Button>
            ))}
          </Space>
        ) : null}
        <Table<TLine>
          rowKey="key"
          dataSource={lines}
          pagination={false}
          locale={{ emptyText: t('multi.empty') }}
          columns={[
            { title: t('col.productNumber'), render: (_, l) => `${l.pile.product_number} ${l.pile.product_name}` },
            { title: t('col.location'), render: (_, l) => l.pile.location_code },
            { title: t('col.expiry'), render: (_, l) => l.pile.expiry_date ?? '—' },
            { title: t('col.state'), render: (_, l) => <LotStateTag state={l.pile.state} /> },
            { title: t('col.free'), align: 'right', render: (_, l) => l.pile.free },
            {
              title: t('col.quantity'),
              render: (_, l) => (
                <InputNumber
                  min={1}
                  max={l.pile.free}
                  precision={0}
                  value={l.quantity}
                  onChange={(v) => update(l.key, { quantity: typeof v === 'number' ? v : null })}
                  aria-label={t('col.quantity')}
                />
              ),
            },
            {
              title: t('multi.toLocation'),
              render: (_, l) => (
                <LocationSelect
                  warehouseId={l.pile.warehouse_id}
                  value={l.to}
                  onChange={(to) => update(l.key, { to })}
                  aria-label={t('multi.toLocation')}
                />
              ),
            },
            {
              title: '',
              render: (_, l) => (
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('multi.remove')}
                  onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
                />
              ),
            },
          ]}
        />
        <Space orientation="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Input
            value={remark}
            onChange={(e) => setRemark(e.target.value)}
            maxLength={500}
            placeholder={t('col.remark')}
            aria-label={t('col.remark')}
          />
          {problem ? <Alert type="error" showIcon title={problem} data-testid="multi-error" /> : null}
          <Space>
            <Button
              type="primary"
              disabled={lines.length === 0}
              loading={transfer.isPending}
              onClick={() => void submit()}
              data-testid="multi-submit"
            >
              {t('multi.submit', { count: lines.length })}
            </Button>
            <Typography.Text type="secondary">{t('multi.allOrNothing')}</Typography.Text>
          </Space>
        </Space>
      </Card>
    </FloorScreen>
  );
}
