import { FullscreenOutlined } from '@ant-design/icons';
import { CVS_CHAINS, type TReleaseChannel, type TShipsTodayRow } from '@wms/contracts';
import { Button, Card, ConfigProvider, Empty, Table, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { useActiveChannels, useShipsToday } from '../../api';
import '../../i18n';
import { ChannelReleaseButton } from './channel-release';
import { ReleaseWaveButton } from './release-wave';

const RED = '#ff4d4f';

/** Whole minutes from `now` to `iso` (negative once passed). */
const minutesTo = (iso: string, now: number) => Math.floor((Date.parse(iso) - now) / 60_000);

function Stat(props: { label: string; value: number; color?: string; testId: string }) {
  return (
    <div style={{ textAlign: 'center', minWidth: 90 }}>
      <div style={{ fontSize: 44, fontWeight: 700, lineHeight: 1.1, color: props.color }} data-testid={props.testId}>
        {props.value}
      </div>
      <div style={{ fontSize: 16, opacity: 0.75 }}>{props.label}</div>
    </div>
  );
}

function CarrierCard({ row, now }: { row: TShipsTodayRow; now: number }) {
  const { t } = useTranslation('warehouse');
  const name = row.provider_name ?? row.provider_code ?? t('board.noCarrier');
  const toCutoff = row.cutoff_at ? minutesTo(row.cutoff_at, now) : null;
  const key = `${row.warehouse_code ?? '-'}-${row.provider_code ?? '-'}`;
  return (
    <Card
      data-testid={`board-row-${key}`}
      style={{ borderColor: row.late ? RED : undefined, borderWidth: row.late ? 2 : 1 }}
      title={
        <span style={{ fontSize: 24 }}>
          {name} <span style={{ opacity: 0.6, fontSize: 18 }}>{row.warehouse_code ?? ''}</span>
        </span>
      }
      extra={
        <span style={{ fontSize: 20, color: toCutoff !== null && toCutoff < 30 ? RED : undefined }}>
          {toCutoff === null
            ? t('board.noCutoffToday')
            : toCutoff >= 0
              ? t('board.cutoffIn', { minutes: toCutoff })
              : t('board.cutoffPassed')}
          {row.pickup_at ? ` · ${t('board.pickupAt', { time: formatDateTime(row.pickup_at).slice(-5) })}` : ''}
        </span>
      }
    >
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, justifyContent: 'space-around' }}>
        <Stat label={t('board.waiting')} value={row.waiting} testId={`board-waiting-${key}`} />
        <Stat label={t('board.toPick')} value={row.to_pick} testId={`board-to-pick-${key}`} />
        <Stat label={t('board.toPack')} value={row.to_pack} testId={`board-to-pack-${key}`} />
        <Stat label={t('board.shipped')} value={row.shipped} color="#52c41a" testId={`board-shipped-${key}`} />
        <Stat
          label={t('board.handedOver')}
          value={row.handed_over}
          color="#1677ff"
          testId={`board-handed-over-${key}`}
        />
        <Stat
          label={t('board.late')}
          value={row.late}
          color={row.late ? RED : undefined}
          testId={`board-late-${key}`}
        />
      </div>
      <div style={{ marginTop: 16, display: 'flex', gap: 12, justifyContent: 'flex-end' }}>
        {row.warehouse_id && row.logistics_provider_id ? (
          <Link
            to={`/ships-handover?warehouse_id=${row.warehouse_id}&logistics_provider_id=${row.logistics_provider_id}`}
          >
            <Button size="large" data-testid={`board-handover-${key}`}>
              {t('manifest.open')}
            </Button>
          </Link>
        ) : null}
        <ReleaseWaveButton row={row} testKey={key} />
      </div>
    </Card>
  );
}

/** One saved release channel on the board: its rules in short, open orders, minutes to its cut-off, a release button. */
function ChannelCard({ channel: c, now }: { channel: TReleaseChannel; now: number }) {
  const { t } = useTranslation('warehouse');
  const toCutoff = minutesTo(c.next_cutoff_at, now);
  const carriers = c.provider_names.length ? c.provider_names.join(', ') : t('channels.allCarriers');
  return (
    <Card
      size="small"
      data-testid={`board-channel-${c.name}`}
      title={<span style={{ fontSize: 20 }}>{c.name}</span>}
      extra={
        <span style={{ fontSize: 16, color: toCutoff < 30 ? RED : undefined }}>
          {toCutoff < 12 * 60
            ? `${formatDateTime(c.next_cutoff_at).slice(-5)} · ${t('channels.cutoffIn', { minutes: toCutoff })}`
            : `${t('channels.nextCutoff')} ${formatDateTime(c.next_cutoff_at)}`}
        </span>
      }
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
        <Stat label={t('channels.openCount')} value={c.open_count} testId={`board-channel-open-${c.name}`} />
        <div style={{ flex: 1, opacity: 0.8, fontSize: 14 }}>
          <div>
            {c.warehouse_code} · {carriers}
            {c.cvs_chain ? ` · ${CVS_CHAINS[c.cvs_chain]}` : ''}
          </div>
          <div>
            {c.area_code ?? t('channels.allAreas')} · {t(`channels.priorities.${c.priority}`)}
          </div>
          <div>
            {t('channels.maxOrders')} {c.max_orders}
            {c.max_units ? ` · ${t('channels.maxUnits')} ${c.max_units}` : ''}
          </div>
        </div>
        <ChannelReleaseButton channel={c} />
      </div>
    </Card>
  );
}

/**
 * /ships-today: the floor board for a big screen (dark, refreshed every 30 seconds): per carrier and warehouse the
 * orders due today or earlier still to release, pick and pack, today's shipped ones and the late ones in red, the
 * minutes to the carrier's cut-off; below, the earliest late orders.
 */
export default function ShipsTodayPage() {
  const { t } = useTranslation('warehouse');
  const board = useShipsToday();
  const channels = useActiveChannels();
  const [now, setNow] = useState(() => Date.now());
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  const data = board.data;
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
      <div
        ref={root}
        data-testid="ships-today"
        style={{ background: '#000', color: '#fff', padding: 24, minHeight: '100%', borderRadius: 8 }}
      >
        <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 16 }}>
          <h1 style={{ margin: 0, fontSize: 32, color: '#fff' }}>{t('board.title')}</h1>
          <span style={{ fontSize: 20, opacity: 0.75 }}>{data ? formatDateTime(new Date(now).toISOString()) : ''}</span>
          <Button
            style={{ marginInlineStart: 'auto' }}
            icon={<FullscreenOutlined />}
            onClick={() => void root.current?.requestFullscreen?.()}
          >
            {t('board.fullScreen')}
          </Button>
        </div>
        {board.isError ? <Empty description={errorText(board.error)} /> : null}
        {data && data.rows.length === 0 ? <Empty description={t('board.nothingDue')} /> : null}
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(520px, 1fr))', gap: 16 }}>
          {data?.rows.map((r) => (
            <CarrierCard key={`${r.warehouse_id}-${r.logistics_provider_id}`} row={r} now={now} />
          ))}
        </div>
        <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginTop: 24, marginBottom: 12 }}>
          <h2 style={{ margin: 0, fontSize: 24, color: '#fff' }}>{t('channels.boardTitle')}</h2>
          <Link to="/release-channels">
            <Button data-testid="board-channels-manage">{t('channels.manage')}</Button>
          </Link>
        </div>
        {channels.data && channels.data.results.length === 0 ? (
          <Empty description={t('channels.none')} data-testid="board-channels-empty" />
        ) : null}
        <div
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(420px, 1fr))', gap: 16 }}
          data-testid="board-channels"
        >
          {channels.data?.results.map((c) => (
            <ChannelCard key={c.id} channel={c} now={now} />
          ))}
        </div>
        {data?.late_orders.length ? (
          <>
            <h2 style={{ color: RED, fontSize: 24, marginTop: 24 }}>{t('board.lateOrders')}</h2>
            <Table
              rowKey="id"
              size="middle"
              pagination={false}
              dataSource={data.late_orders}
              data-testid="board-late-orders"
              columns={[
                { key: 'number', title: t('board.order'), render: (_, o) => o.platform_order_number ?? o.number },
                { key: 'carrier', title: t('board.carrier'), render: (_, o) => o.provider_name ?? '' },
                { key: 'warehouse', title: t('fields.warehouse'), render: (_, o) => o.warehouse_code ?? '' },
                {
                  key: 'ship_by',
                  title: t('board.shipBy'),
                  render: (_, o) => <span style={{ color: RED, fontWeight: 600 }}>{formatDateTime(o.ship_by)}</span>,
                },
              ]}
            />
          </>
        ) : null}
      </div>
    </ConfigProvider>
  );
}
