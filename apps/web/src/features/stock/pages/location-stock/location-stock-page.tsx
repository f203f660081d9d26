import type { TBalanceRow } from '@wms/contracts';
import { Card, Select, Space, Tabs } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { stockKeys } from '../../../../shared/api/stock-keys';
import { FloorScreen } from '../../../../shared/handheld/handheld';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { DataTable } from '../../../../shared/table/data-table';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { fetchLocationStock } from '../../api';
import { usePileColumns } from '../product-location/product-location-page';
import '../../i18n';
import { useLocations } from '../../../../shared/pickers/api';

// The analysis view (issue #18) loads when its tab opens.
const OccupancyView = lazy(() =>
  import('../../../analysis/components/occupancy-view').then((m) => ({ default: m.OccupancyView })),
);

/** /location-stock: what lies in a storage location (scan its code) or on a shelf. */
export default function LocationStockPage() {
  const { t } = useTranslation(['stock', 'nav', 'analysis']);
  const [warehouseId, setWarehouseId] = useState<string>();
  const [code, setCode] = useState('');
  const [scanned, setScanned] = useState<string>();
  const [shelfId, setShelfId] = useState<string>();
  const locations = useLocations(warehouseId);
  const shelves = [
    ...new Map(
      (locations.data ?? []).filter((l) => l.shelf_id).map((l) => [l.shelf_id!, l.shelf_code ?? l.shelf_id!]),
    ).entries(),
  ];
  const columns = usePileColumns().filter((c) => c.dataIndex !== 'warehouse_code');
  return (
    <FloorScreen>
      <Card title={screenTitle('/location-stock')}>
        <Tabs
          items={[
            {
              key: 'lots',
              label: t('analysis:occupancy.tabLots'),
              children: (
                <>
                  <Space wrap style={{ marginBottom: 16 }}>
                    <WarehouseSelect
                      value={warehouseId}
                      onChange={setWarehouseId}
                      autoPick
                      aria-label={t('filter.warehouse')}
                    />
                    <ScanInput
                      autoFocus
                      value={code}
                      onChange={(v) => {
                        setCode(v);
                        if (!v) setScanned(undefined);
                      }}
                      onScan={(c) => {
                        setScanned(c);
                        setShelfId(undefined);
                      }}
                      placeholder={t('locationStock.scan')}
                      aria-label={t('locationStock.scan')}
                      data-testid="location-scan"
                    />
                    <Select
                      allowClear
                      value={shelfId}
                      onChange={(v: string | undefined) => {
                        setShelfId(v);
                        setScanned(undefined);
                        setCode('');
                      }}
                      placeholder={t('filter.shelf')}
                      aria-label={t('filter.shelf')}
                      style={{ minWidth: 140 }}
                      options={shelves.map(([id, c]) => ({ value: id, label: c }))}
                    />
                  </Space>
                  <DataTable<TBalanceRow>
                    queryKey={[...stockKeys.piles, 'location', warehouseId, scanned, shelfId]}
                    fetchPage={(q, signal) =>
                      fetchLocationStock(
                        { ...q, warehouse_id: warehouseId, location_code: scanned, shelf_id: shelfId },
                        signal,
                      )
                    }
                    rowKey="balance_id"
                    excel={{ fileName: 'location-stock' }}
                    searchPlaceholder={t('filter.pileSearch')}
                    columns={columns}
                  />
                </>
              ),
            },
            {
              key: 'analysis',
              label: t('analysis:occupancy.tabAnalysis'),
              children: (
                <Suspense>
                  <OccupancyView />
                </Suspense>
              ),
            },
          ]}
        />
      </Card>
    </FloorScreen>
  );
}
