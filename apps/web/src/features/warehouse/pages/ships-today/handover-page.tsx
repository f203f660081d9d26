import { PrinterOutlined } from '@ant-design/icons';
import { shipManifestRoutes, type TManifestParcel } from '@wms/contracts';
import { App, Button, Card, Empty, Input, type InputRef, Popconfirm, Space, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useRoute, useRouteMutation } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { useShipsToday, warehouseReads } from '../../api';
import '../../i18n';

/**
 * /ships-handover?warehouse_id=…&logistics_provider_id=…: the carrier's pick-up. Every parcel handed to the driver is
 * scanned (tracking number or order number) into the open manifest; closing it hands them over (the board counts
 * them) and the manifest is printed for the driver to sign.
 */
export default function HandoverPage() {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const warehouseId = params.get('warehouse_id') ?? undefined;
  const providerId = params.get('logistics_provider_id') ?? undefined;
  const board = useShipsToday();
  const row = board.data?.rows.find((r) => r.warehouse_id === warehouseId && r.logistics_provider_id === providerId);
  const list = useRoute(
    shipManifestRoutes.listManifests,
    warehouseId && providerId ? { query: { warehouse_id: warehouseId, logistics_provider_id: providerId } } : null,
  );
  const scan = useRouteMutation(shipManifestRoutes.scanManifest, { invalidates: warehouseReads });
  const close = useRouteMutation(shipManifestRoutes.closeManifest, { invalidates: warehouseReads });
  const [code, setCode] = useState('');
  const input = useRef<InputRef>(null);
  if (!warehouseId || !providerId) return <Empty description={t('manifest.missing')} />;
  const open = list.data?.open ?? null;
  const carrier = open?.provider_name ?? row?.provider_name ?? row?.provider_code ?? '';
  const warehouse = open?.warehouse_code ?? row?.warehouse_code ?? '';

  const onScan = async () => {
    const value = code.trim();
    if (!value) return;
    // Cleared at once: a scanner may send the next code before this one is answered.
    setCode('');
    input.current?.focus();
    try {
      await scan.mutateAsync({ body: { warehouse_id: warehouseId, logistics_provider_id: providerId, code: value } });
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const onClose = async () => {
    if (!open) return;
    try {
      const m = await close.mutateAsync({ params: { id: open.id } });
      void message.success(t('manifest.closed', { number: m.number, count: m.parcel_count }));
      window.open(`/ships-manifest-print/${m.id}`, '_blank');
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="handover">
      <Space wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('manifest.title', { carrier, warehouse })}
        </Typography.Title>
        <Link to="/ships-today">{t('manifest.back')}</Link>
      </Space>
      <Card>
        <Space.Compact style={{ width: '100%', maxWidth: 640 }}>
          <Input
            ref={input}
            size="large"
            autoFocus
            value={code}
            placeholder={t('manifest.scanPlaceholder')}
            onChange={(e) => setCode(e.target.value)}
            onPressEnter={() => void onScan()}
            data-testid="handover-scan"
          />
          <Button size="large" type="primary" loading={scan.isPending} onClick={() => void onScan()}>
            {t('manifest.scan')}
          </Button>
        </Space.Compact>
      </Card>
      <Card
        title={
          open ? (
            <span data-testid="handover-open">
              {t('manifest.openManifest', { number: open.number, count: open.parcel_count })}
            </span>
          ) : (
            t('manifest.noOpen')
          )
        }
        extra={
          open ? (
            <Popconfirm
              title={t('manifest.confirmClose', { number: open.number, count: open.parcel_count })}
              onConfirm={() => void onClose()}
            >
              <Button type="primary" danger loading={close.isPending} data-testid="handover-close">
                {t('manifest.close')}
              </Button>
            </Popconfirm>
          ) : null
        }
      >
        <Table<TManifestParcel>
          rowKey="order_id"
          size="middle"
          pagination={false}
          dataSource={open?.parcels ?? []}
          data-testid="handover-parcels"
          columns={[
            { key: 'i', title: '#', render: (_, __, i) => i + 1 },
            { key: 'order', title: t('manifest.order'), render: (_, p) => p.platform_order_number ?? p.order_number },
            { key: 'tracking', title: t('manifest.tracking'), render: (_, p) => p.consignment_number ?? '' },
            { key: 'recipient', title: t('manifest.recipient'), dataIndex: 'recipient_name' },
            {
              key: 'scanned',
              title: t('manifest.scannedAt'),
              render: (_, p) => formatDateTime(p.scanned_at),
            },
          ]}
        />
      </Card>
      <Card title={t('manifest.recent')}>
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={list.data?.closed ?? []}
          data-testid="handover-closed"
          columns={[
            { key: 'number', title: t('manifest.number'), dataIndex: 'number' },
            { key: 'count', title: t('manifest.parcels'), dataIndex: 'parcel_count', align: 'right' },
            {
              key: 'closed_at',
              title: t('manifest.closedAt'),
              render: (_, m) => (m.closed_at ? formatDateTime(m.closed_at) : ''),
            },
            {
              key: 'print',
              title: '',
              render: (_, m) => (
                <Button
                  type="link"
                  icon={<PrinterOutlined />}
                  onClick={() => window.open(`/ships-manifest-print/${m.id}`, '_blank')}
                >
                  {t('manifest.print')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
