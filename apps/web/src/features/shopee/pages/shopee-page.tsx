import {
  DisconnectOutlined,
  LinkOutlined,
  RedoOutlined,
  SettingOutlined,
  SyncOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { TShopeeOrder, TShopeeShop } from '@wms/contracts';
import { jobRoutes, SHOPEE_FIRST_SYNC_DEFAULT_DAYS, SHOPEE_FIRST_SYNC_MAX_DAYS } from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Drawer,
  Empty,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { apiCall } from '../../../shared/api/client';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { followJob, jobErrorText } from '../../../shared/jobs/use-job-progress';
import {
  shopeeAuthUrl,
  useConnectShop,
  useDisconnectShop,
  useRetryOrders,
  useSetShipMode,
  useShopeeOrders,
  useShopeeShops,
  useSyncShop,
} from '../api';
import { ShipSettingsDrawer } from '../components/ship-settings';
import '../i18n';

const FIRST_SYNC_KEY = 'wms.shopee.firstSyncDays';

const STATE_COLOR: Record<TShopeeShop['state'], string> = {
  connected: 'green',
  token_expiring: 'orange',
  error: 'red',
  reauthorize: 'volcano',
  disconnected: 'default',
};
const ORDER_COLOR: Record<TShopeeOrder['state'], string> = {
  created: 'green',
  abnormal: 'red',
  cancelled: 'default',
  flagged: 'orange',
};

/** The orders one shop's syncs saw: abnormal and flagged first (they need a person). */
function ShopOrders({ shop, onClose }: { shop: TShopeeShop | null; onClose: () => void }) {
  const { t } = useTranslation('shopee');
  const [state, setState] = useState<string>('abnormal');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const list = useShopeeOrders(shop?.id ?? null, state === 'all' ? undefined : state, page, pageSize);
  const retry = useRetryOrders();
  const { message } = App.useApp();
  /** "Retry now": read the abnormal orders (these, or all) from Shopee again and create those that now can be. */
  const onRetry = async (orderIds?: string[]) => {
    if (!shop) return;
    try {
      const { job_id, orders } = await retry.mutateAsync({ id: shop.id, ...(orderIds ? { orderIds } : {}) });
      if (!job_id) {
        void message.info(t('messages.nothingToRetry'));
        return;
      }
      const job = await followJob(await apiCall(jobRoutes.getJob, { params: { id: job_id } }), () => {});
      void list.refetch();
      if (job.state === 'succeeded') {
        const r = job.result as { created?: number; abnormal?: number } | null;
        void message.success(t('messages.retried', { orders, created: r?.created ?? 0, abnormal: r?.abnormal ?? 0 }));
      } else void message.error(jobErrorText(job.error));
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  return (
    <Drawer
      open={!!shop}
      onClose={onClose}
      size="large"
      title={shop ? t('orders.title', { name: shop.name }) : ''}
      data-testid="shopee-orders"
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('orders.healHint')}
        </Typography.Paragraph>
        <Space wrap>
          <Segmented
            value={state}
            onChange={(v) => {
              setState(String(v));
              setPage(1);
            }}
            options={(['abnormal', 'flagged', 'created', 'cancelled', 'all'] as const).map((s) => ({
              value: s,
              label: t(`orderStates.${s}`),
            }))}
          />
          {state === 'abnormal' ? (
            <Button
              icon={<RedoOutlined />}
              loading={retry.isPending}
              disabled={shop?.state === 'reauthorize' || shop?.state === 'disconnected'}
              onClick={() => void onRetry()}
              data-testid="shopee-retry-all"
            >
              {t('actions.retryAll')}
            </Button>
          ) : null}
        </Space>
        <Table<TShopeeOrder>
          rowKey="id"
          size="small"
          scroll={{ x: 'max-content' }}
          loading={list.isFetching}
          dataSource={list.data?.results ?? []}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.count ?? 0,
            pageSizeOptions: [10, 25, 50, 100],
            showSizeChanger: true,
            onChange: (p, s) => {
              setPage(p);
              setPageSize(s);
            },
          }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('orders.empty')} /> }}
          columns={[
            { title: t('orders.orderSn'), dataIndex: 'order_sn' },
            { title: t('orders.shopeeStatus'), dataIndex: 'shopee_status' },
            {
              title: t('orders.channel'),
              key: 'channel',
              render: (_, row) => (
                <Space size={4} wrap>
                  <span>{row.logistics_channel_name ?? '—'}</span>
                  {row.platform_logistics ? (
                    <Tooltip title={t('orders.platformLogisticsHint')}>
                      <Tag color="orange" data-testid="shopee-platform-logistics">
                        {t('orders.platformLogistics')}
                      </Tag>
                    </Tooltip>
                  ) : null}
                </Space>
              ),
            },
            {
              title: t('orders.trackingNumber'),
              dataIndex: 'tracking_number',
              render: (v: string | null) => v ?? '—',
            },
            {
              title: t('orders.arrangement'),
              key: 'arrangement',
              render: (_, row) => {
                const a = row.arrangement;
                if (!a) return '—';
                return (
                  <span data-testid="shopee-arrangement">
                    {a.mode === 'pickup'
                      ? t('orders.arrangedPickup', {
                          address: a.address ?? '',
                          date: a.slot_date ?? '',
                          slot: a.slot_text ?? '',
                        })
                      : a.branch
                        ? t('orders.arrangedDropoffBranch', { branch: a.branch })
                        : t('orders.arrangedDropoff')}
                  </span>
                );
              },
            },
            {
              title: t('orders.state'),
              dataIndex: 'state',
              render: (v: TShopeeOrder['state']) => <Tag color={ORDER_COLOR[v]}>{t(`orderStates.${v}`)}</Tag>,
            },
            {
              title: t('orders.order'),
              dataIndex: 'order_number',
              render: (v: string | null) => v ?? '—',
            },
            {
              title: t('orders.problem'),
              dataIndex: 'problem',
              render: (p: TShopeeOrder['problem']) =>
                p ? <Typography.Text type="danger">{p.message}</Typography.Text> : '—',
            },
            { title: t('orders.updatedAt'), dataIndex: 'updated_at', render: (v: string) => formatDateTime(v) },
            {
              title: t('fields.actions'),
              key: 'retry',
              render: (_, row) =>
                row.state === 'abnormal' ? (
                  <Button
                    size="small"
                    type="link"
                    icon={<RedoOutlined />}
                    disabled={retry.isPending || shop?.state === 'reauthorize' || shop?.state === 'disconnected'}
                    onClick={() => void onRetry([row.id])}
                    data-testid="shopee-retry"
                  >
                    {t('actions.retry')}
                  </Button>
                ) : null,
            },
          ]}
        />
      </Space>
    </Drawer>
  );
}

/**
 * /module-shopee-create: connect a Shopee shop (Shopee's authorisation page returns here with `code` and `shop_id`),
 * see each shop's state — connected, token expiring, error with Shopee's message, disconnected —, the last sync and
 * its counts, sync now, the orders a sync could not create, disconnect.
 */
export default function ShopeePage() {
  const { t } = useTranslation(['shopee', 'common']);
  const { message } = App.useApp();
  const shops = useShopeeShops();
  const connect = useConnectShop();
  const disconnect = useDisconnectShop();
  const sync = useSyncShop();
  const shipMode = useSetShipMode();
  const [params, setParams] = useSearchParams();
  const [viewing, setViewing] = useState<TShopeeShop | null>(null);
  const [settingUp, setSettingUp] = useState<TShopeeShop | null>(null);
  const [going, setGoing] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const handled = useRef(false);
  // How far back the first sync goes: chosen before going to Shopee, kept across the round trip.
  const [firstSyncDays, setFirstSyncDays] = useState<number>(
    () => Number(sessionStorage.getItem(FIRST_SYNC_KEY)) || SHOPEE_FIRST_SYNC_DEFAULT_DAYS,
  );

  // Back from Shopee: exchange the code once, then drop it from the address.
  useEffect(() => {
    const code = params.get('code');
    const shopId = Number(params.get('shop_id'));
    if (!code || !shopId || handled.current) return;
    handled.current = true;
    setParams({}, { replace: true });
    const days = Number(sessionStorage.getItem(FIRST_SYNC_KEY)) || SHOPEE_FIRST_SYNC_DEFAULT_DAYS;
    sessionStorage.removeItem(FIRST_SYNC_KEY);
    connect
      .mutateAsync({ code, shop_id: shopId, first_sync_days: days })
      .then((shop) => void message.success(t('messages.connected', { name: shop.name })))
      .catch((err) => setConnectError(errorText(err)));
  }, [params, setParams, connect, message, t]);

  const goAuthorise = async () => {
    setGoing(true);
    try {
      sessionStorage.setItem(FIRST_SYNC_KEY, String(firstSyncDays));
      const { url } = await shopeeAuthUrl();
      window.location.assign(url);
    } catch (err) {
      setGoing(false);
      void message.error(errorText(err));
    }
  };

  const onSync = async (shop: TShopeeShop) => {
    try {
      const { job_id } = await sync.mutateAsync(shop.id);
      const first = await apiCall(jobRoutes.getJob, { params: { id: job_id } });
      const job = await followJob(first, () => {});
      void shops.refetch();
      if (job.state === 'succeeded') {
        const r = job.result as { created?: number; abnormal?: number } | null;
        void message.success(t('messages.synced', { created: r?.created ?? 0, abnormal: r?.abnormal ?? 0 }));
      } else void message.error(jobErrorText(job.error));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  const configured = shops.data?.configured ?? true;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="shopee-page">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 860 }}>
          {t('intro')}
        </Typography.Paragraph>
        <Space wrap>
          <Tooltip title={t('firstSync.hint', { max: SHOPEE_FIRST_SYNC_MAX_DAYS })}>
            <Space size={4}>
              <Typography.Text>{t('firstSync.label')}</Typography.Text>
              <Select
                value={firstSyncDays}
                onChange={setFirstSyncDays}
                style={{ minWidth: 110 }}
                data-testid="shopee-first-sync-days"
                options={[7, 15, 30, 60, SHOPEE_FIRST_SYNC_MAX_DAYS].map((d) => ({
                  value: d,
                  label: t('firstSync.days', { count: d }),
                }))}
              />
            </Space>
          </Tooltip>
          <Button
            type="primary"
            icon={<LinkOutlined />}
            loading={going || connect.isPending}
            disabled={!configured}
            onClick={() => void goAuthorise()}
            data-testid="shopee-connect"
          >
            {t('actions.connect')}
          </Button>
        </Space>
      </Space>
      {!configured ? (
        <Alert type="warning" showIcon title={t('notConfigured')} data-testid="shopee-not-configured" />
      ) : null}
      {connectError ? (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => setConnectError(null) }}
          title={t('messages.connectFailed', { message: connectError })}
          data-testid="shopee-connect-error"
        />
      ) : null}
      <Table<TShopeeShop>
        rowKey="id"
        loading={shops.isLoading}
        dataSource={shops.data?.results ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: shops.isError ? (
            <Empty description={errorText(shops.error)} />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} data-testid="table-empty">
              <Typography.Text type="secondary">{t('emptyHint')}</Typography.Text>
            </Empty>
          ),
        }}
        columns={[
          { title: t('fields.shopId'), dataIndex: 'shop_id' },
          {
            title: t('fields.name'),
            key: 'name',
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <span>{row.name}</span>
                <Typography.Text type="secondary">{row.platform_code}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('fields.state'),
            key: 'state',
            render: (_, row) => (
              <Space orientation="vertical" size={2} data-testid="shopee-state">
                <Tag color={STATE_COLOR[row.state]}>{t(`states.${row.state}`)}</Tag>
                {row.state === 'reauthorize' ? (
                  <Typography.Text
                    type="danger"
                    style={{ display: 'block', maxWidth: 260, whiteSpace: 'normal' }}
                    data-testid="shopee-reauthorize"
                  >
                    {t('reauthorizeHint')}
                  </Typography.Text>
                ) : null}
                {(row.state === 'error' || row.state === 'reauthorize') && row.last_error_message ? (
                  <Typography.Text
                    type="danger"
                    style={{ display: 'block', maxWidth: 260, whiteSpace: 'normal' }}
                    data-testid="shopee-last-error"
                  >
                    {t('lastError', {
                      message: row.last_error_message,
                      code: row.last_error_code ?? '',
                      at: row.last_error_at ? formatDateTime(row.last_error_at) : '',
                    })}
                  </Typography.Text>
                ) : null}
                {row.state === 'token_expiring' && row.refresh_expires_at ? (
                  <Typography.Text type="warning">
                    {t('expiringHint', { at: formatDateTime(row.refresh_expires_at) })}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
          },
          {
            title: t('fields.lastSync'),
            key: 'last_sync',
            render: (_, row) =>
              row.last_sync_at ? (
                <Space orientation="vertical" size={2} data-testid="shopee-last-sync">
                  <span>{formatDateTime(row.last_sync_at)}</span>
                  {row.last_sync_counts ? (
                    <Typography.Text type="secondary" style={{ display: 'block', maxWidth: 240, whiteSpace: 'normal' }}>
                      {t('counts', row.last_sync_counts)}
                    </Typography.Text>
                  ) : null}
                </Space>
              ) : (
                '—'
              ),
          },
          {
            title: t('fields.abnormal'),
            dataIndex: 'abnormal_orders',
            render: (n: number, row) =>
              n > 0 ? (
                <Button type="link" danger size="small" onClick={() => setViewing(row)}>
                  {n}
                </Button>
              ) : (
                0
              ),
          },
          {
            title: (
              <Tooltip title={t('shipMode.hint')}>
                <span>{t('fields.shipMode')}</span>
              </Tooltip>
            ),
            key: 'ship_mode',
            render: (_, row) => (
              <Space size={4}>
                <Select
                  size="small"
                  style={{ minWidth: 150 }}
                  value={row.ship_mode ?? 'unset'}
                  disabled={row.state === 'disconnected'}
                  loading={shipMode.isPending && shipMode.variables?.id === row.id}
                  data-testid="shopee-ship-mode"
                  options={(['unset', 'pickup', 'dropoff'] as const).map((m) => ({
                    value: m,
                    label: t(`shipMode.${m}`),
                  }))}
                  onChange={async (v: string) => {
                    try {
                      await shipMode.mutateAsync({
                        id: row.id,
                        ship_mode: v === 'unset' ? null : (v as 'pickup' | 'dropoff'),
                      });
                      void message.success(t('messages.shipModeSaved'));
                    } catch (err) {
                      void message.error(errorText(err));
                    }
                  }}
                />
                <Tooltip title={t('shipSettings.open')}>
                  <Button
                    size="small"
                    icon={<SettingOutlined />}
                    disabled={row.state === 'disconnected' || row.state === 'reauthorize'}
                    onClick={() => setSettingUp(row)}
                    aria-label={t('shipSettings.open')}
                    data-testid="shopee-ship-settings-open"
                  />
                </Tooltip>
              </Space>
            ),
          },
          {
            title: t('fields.tokenExpires'),
            dataIndex: 'token_expires_at',
            render: (v: string | null) => (v ? formatDateTime(v) : '—'),
          },
          {
            title: t('fields.actions'),
            key: 'actions',
            render: (_, row) => (
              <Space size="small" wrap>
                <Button
                  size="small"
                  type="primary"
                  icon={<SyncOutlined />}
                  disabled={row.state === 'disconnected' || row.state === 'reauthorize'}
                  loading={sync.isPending && sync.variables === row.id}
                  onClick={() => void onSync(row)}
                  data-testid="shopee-sync"
                >
                  {t('actions.sync')}
                </Button>
                <Button size="small" icon={<UnorderedListOutlined />} onClick={() => setViewing(row)}>
                  {t('actions.orders')}
                </Button>
                {row.state !== 'connected' ? (
                  <Button
                    size="small"
                    type={row.state === 'reauthorize' ? 'primary' : 'default'}
                    danger={row.state === 'reauthorize'}
                    data-testid="shopee-reauthorize-action"
                    icon={<LinkOutlined />}
                    disabled={!configured}
                    onClick={() => void goAuthorise()}
                  >
                    {t('actions.reconnect')}
                  </Button>
                ) : null}
                {row.state !== 'disconnected' ? (
                  <Popconfirm
                    title={t('confirmDisconnect', { name: row.name })}
                    okText={t('common:actions.confirm')}
                    cancelText={t('common:actions.cancel')}
                    onConfirm={async () => {
                      try {
                        await disconnect.mutateAsync(row.id);
                        void message.success(t('messages.disconnected'));
                      } catch (err) {
                        void message.error(errorText(err));
                      }
                    }}
                  >
                    <Button size="small" danger icon={<DisconnectOutlined />}>
                      {t('actions.disconnect')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <ShopOrders shop={viewing} onClose={() => setViewing(null)} />
      <ShipSettingsDrawer shop={settingUp} onClose={() => setSettingUp(null)} />
    </Space>
  );
}
