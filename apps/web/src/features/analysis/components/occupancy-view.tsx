import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { analysisRoutes, OCCUPANCY_GROUPS, type TOccupancyRow } from '@wms/contracts';
import { App, Button, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../../../shared/api/client';
import { downloadFile } from '../../../shared/download';
import { errorText } from '../../../shared/forms/error-text';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import '../i18n';

type TGroup = (typeof OCCUPANCY_GROUPS)[number];

/** /location-stock's analysis view: occupancy per warehouse, area or shelf, and the locations holding bad lots. */
export function OccupancyView() {
  const { t } = useTranslation('analysis');
  const { message } = App.useApp();
  const [group, setGroup] = useState<TGroup>('warehouse');
  const [warehouseId, setWarehouseId] = useState<string | undefined>();
  const query = { group, ...(warehouseId ? { warehouse_id: warehouseId } : {}) };
  const data = useQuery({
    queryKey: ['analysis', 'occupancy', query],
    queryFn: ({ signal }) => apiCall(analysisRoutes.locationOccupancy, { query } as never, { signal }),
  });
  const onExport = async () => {
    try {
      await downloadFile(analysisRoutes.exportLocationOccupancy, 'location-occupancy.xlsx', { query } as never);
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  const count = (v: number) => v;
  const warn = (v: number) => <span style={{ color: v ? '#cf1322' : undefined }}>{v}</span>;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Select<TGroup>
          value={group}
          onChange={setGroup}
          aria-label={t('occupancy.group')}
          style={{ width: 130 }}
          options={OCCUPANCY_GROUPS.map((g) => ({ value: g, label: t(`occupancy.groups.${g}`) }))}
        />
        <WarehouseSelect
          allowClear
          value={warehouseId}
          onChange={(v: string | undefined) => setWarehouseId(v)}
          placeholder={t('filter.warehouse')}
          aria-label={t('filter.warehouse')}
        />
        <Button icon={<DownloadOutlined />} onClick={onExport}>
          {t('export')}
        </Button>
      </Space>
      <Table<TOccupancyRow>
        size="small"
        loading={data.isLoading}
        dataSource={data.data?.results ?? []}
        rowKey={(r) => `${r.warehouse_code}:${r.area_code ?? '-'}:${r.shelf_code ?? '-'}`}
        pagination={{ pageSize: 25 }}
        data-testid="occupancy-table"
        columns={[
          { title: t('col.warehouse'), dataIndex: 'warehouse_code' },
          ...(group === 'area'
            ? [{ title: t('occupancy.area'), dataIndex: 'area_code', render: (v: string | null) => v ?? t('none') }]
            : []),
          ...(group === 'shelf'
            ? [{ title: t('occupancy.shelf'), dataIndex: 'shelf_code', render: (v: string | null) => v ?? t('none') }]
            : []),
          { title: t('occupancy.locations'), dataIndex: 'locations', align: 'right', render: count },
          { title: t('occupancy.cells'), dataIndex: 'cells', align: 'right', render: count },
          { title: t('occupancy.empty'), dataIndex: 'empty', align: 'right', render: count },
          { title: t('occupancy.inUse'), dataIndex: 'in_use', align: 'right', render: count },
          { title: t('occupancy.full'), dataIndex: 'full', align: 'right', render: count },
          { title: t('occupancy.piles'), dataIndex: 'piles', align: 'right', render: count },
          { title: t('col.units'), dataIndex: 'units', align: 'right', render: count },
          { title: t('occupancy.expired'), dataIndex: 'expired_locations', align: 'right', render: warn },
          { title: t('occupancy.unsellable'), dataIndex: 'unsellable_locations', align: 'right', render: warn },
        ]}
      />
    </Space>
  );
}
