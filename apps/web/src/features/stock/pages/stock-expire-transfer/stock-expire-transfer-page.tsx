import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TBalanceRow } from '@wms/contracts';
import { Alert, App, Button, Card, InputNumber, Radio, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { stockKeys } from '../../../../shared/api/stock-keys';
import { errorText } from '../../../../shared/forms/error-text';
import { LocationSelect } from '../../../../shared/pickers/location-select';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { PAGE_SIZES } from '../../../../shared/table/list-query';
import { fetchExpiryCandidates, useExpiryTransfer } from '../../api';
import { usePileColumns } from '../product-location/product-location-page';
import '../../i18n';

type TMode = 'expired' | 'unsellable' | 'expiring';

/** /stock-expire-transfer: list expired / unsellable / soon-expiring lots and move them to an expiry location at once. */
export default function StockExpireTransferPage() {
  const { t } = useTranslation(['stock', 'nav']);
  const { message } = App.useApp();
  const move = useExpiryTransfer();
  const [warehouseId, setWarehouseId] = useState<string>();
  const [mode, setMode] = useState<TMode>('unsellable');
  const [days, setDays] = useState(30);
  const [page, setPage] = useState({ page: 1, page_size: 25 as number });
  const [selected, setSelected] = useState<string[]>([]);
  const [target, setTarget] = useState<string>();
  const [problem, setProblem] = useState<string | null>(null);
  const columns = usePileColumns().map((c) => ({ ...c, sorter: false }));
  const list = useQuery({
    queryKey: [...stockKeys.expiry, warehouseId, mode, days, page],
    enabled: !!warehouseId,
    queryFn: () => fetchExpiryCandidates({ ...page, warehouse_id: warehouseId, mode, days }),
    placeholderData: keepPreviousData,
  });

  const submit = async () => {
    setProblem(null);
    if (!target) return setProblem(t('expiry.noTarget'));
    try {
      const res = await move.mutateAsync({ to_location_id: target, balance_ids: selected });
      void message.success(
        t('expiry.moved', { units: res.unit_count, number: res.number, reserved: res.reserved_left }),
      );
      setSelected([]);
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  return (
    <Card title={screenTitle('/stock-expire-transfer')}>
      <Space wrap style={{ marginBottom: 16 }}>
        <WarehouseSelect
          value={warehouseId}
          onChange={(w) => {
            setWarehouseId(w);
            setSelected([]);
          }}
          autoPick
          aria-label={t('filter.warehouse')}
        />
        <Radio.Group
          value={mode}
          onChange={(e) => {
            setMode(e.target.value as TMode);
            setSelected([]);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          optionType="button"
          options={(['expired', 'unsellable', 'expiring'] as const).map((m) => ({
            value: m,
            label: t(`expiry.mode.${m}`),
          }))}
        />
        {mode === 'expiring' ? (
          <Space>
            <Typography.Text>{t('expiry.within')}</Typography.Text>
            <InputNumber
              min={0}
              max={3650}
              precision={0}
              value={days}
              onChange={(v) => setDays(typeof v === 'number' ? v : 0)}
              aria-label={t('expiry.days')}
            />
            <Typography.Text>{t('expiry.daysUnit')}</Typography.Text>
          </Space>
        ) : null}
      </Space>
      <Table<TBalanceRow>
        rowKey="balance_id"
        columns={columns}
        dataSource={list.data?.results ?? []}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as string[]),
          preserveSelectedRowKeys: true,
        }}
        pagination={{
          current: page.page,
          pageSize: page.page_size,
          total: list.data?.count ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          onChange: (p, s) => setPage({ page: s !== page.page_size ? 1 : p, page_size: s }),
        }}
        locale={{ emptyText: t('expiry.none') }}
      />
      <Space wrap style={{ marginTop: 16 }}>
        <LocationSelect
          warehouseId={warehouseId}
          kind="expired"
          value={target}
          onChange={setTarget}
          placeholder={t('expiry.target')}
          aria-label={t('expiry.target')}
          style={{ minWidth: 200 }}
        />
        <Button
          type="primary"
          danger
          disabled={selected.length === 0}
          loading={move.isPending}
          onClick={() => void submit()}
          data-testid="expiry-submit"
        >
          {t('expiry.move', { count: selected.length })}
        </Button>
      </Space>
      {problem ? <Alert type="error" showIcon title={problem} style={{ marginTop: 16 }} /> : null}
    </Card>
  );
}
