import type { TBatch, TPickLine, TPickView } from '@wms/contracts';
import type { InputRef } from 'antd';
import { App, Button, Card, InputNumber, Popconfirm, Progress, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../../shared/api/client';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen, ScanStep, useHandheld } from '../../../../shared/handheld/handheld';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { fetchBatches, pickScan, pickShort, pickTote, pickView } from '../../api';
import '../../i18n';

type TCue = { kind: 'ok' | 'refused'; text: string } | null;

const left = (l: TPickLine) => Math.max(0, l.quantity - l.picked - l.short);
const sameCode = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

/** A scan's id, made once per scan on the handheld: a resent request of the same scan is counted once. */
function scanId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Send a write once more with the same scan id when the network dropped it (the server counts it once). */
async function withRetry<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NETWORK_ERROR') return call();
    throw err;
  }
}

/**
 * /deliver-pick: the pick walk of a collection batch (or a released wave) on a handheld, scanner-first. Open the
 * batch (scan its number or choose it); for a cluster pick scan a tote for each order first; then the screen names the
 * next location in walking order in large type: scan it, then scan the product (each scan one unit, or the quantity
 * entered) — the screen names the tote in a cluster pick. A wrong location or product sounds the error tone; "short
 * pick" reports units not on the shelf. The walk's rules (what is left where, idempotent scans) are the server's.
 */
export default function DeliverPickPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const batchId = params.get('batch');
  const [view, setView] = useState<TPickView | null>(null);
  const [batches, setBatches] = useState<TBatch[]>([]);
  const [cue, setCue] = useState<TCue>(null);
  const [code, setCode] = useState('');
  const [location, setLocation] = useState<string | null>(null);
  const [quantity, setQuantity] = useState(1);
  const [clusterSetup, setClusterSetup] = useState(false);
  const scanRef = useRef<InputRef>(null);
  const handheld = useHandheld();

  const signal = (kind: 'ok' | 'refused', text: string) => {
    setCue({ kind, text });
    return kind === 'ok';
  };

  useEffect(() => {
    if (batchId) return;
    setView(null);
    fetchBatches({ page: 1, page_size: 50, ordering: '-created_at' })
      .then((p) => setBatches(p.results.filter((b) => b.exported_count + b.online_count > 0)))
      .catch(() => setBatches([]));
  }, [batchId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per batch
  useEffect(() => {
    if (!batchId) return;
    let live = true;
    pickView(batchId)
      .then((v) => {
        if (!live) return;
        setView(v);
        setLocation(null);
        signal('ok', t('pick.opened', { number: v.batch.number, units: v.total_units }));
      })
      .catch((err) => live && signal('refused', errorText(err)));
    return () => {
      live = false;
    };
  }, [batchId]);

  // The next scan always has the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus whenever the step changes
  useEffect(() => {
    scanRef.current?.focus();
  }, [view, location, clusterSetup, batchId]);

  const open = (id: string | null) => {
    setParams(id ? { batch: id } : {});
    setLocation(null);
    setClusterSetup(false);
    setCue(null);
  };

  const openByNumber = async (number: string) => {
    setCode('');
    try {
      const page = await fetchBatches({ page: 1, page_size: 10, search: number });
      const found = page.results.find((b) => sameCode(b.number, number));
      if (!found) return signal('refused', errorText(new ApiError(404, 'NOT_FOUND', {}, '')));
      open(found.id);
      return true;
    } catch (err) {
      return signal('refused', errorText(err));
    }
  };

  const lines = view?.lines ?? [];
  const open_ = lines.filter((l) => left(l) > 0);
  const next = open_[0];
  const here = location ? open_.filter((l) => sameCode(l.location_code, location)) : [];
  const current = here[0];
  const needTotes = !!view && (clusterSetup || view.cluster) && view.totes.some((x) => x.tote_code === null);
  const nextTote = needTotes ? view?.totes.find((x) => x.tote_code === null) : undefined;
  const toteOf = (orderId: string) => view?.totes.find((x) => x.order_id === orderId);
  const done = (view?.picked_units ?? 0) + (view?.short_units ?? 0);

  const scanTote = async (value: string) => {
    setCode('');
    if (!view || !nextTote) return false;
    try {
      const v = await withRetry(() => pickTote(view.batch.id, { order_id: nextTote.order_id, tote_code: value }));
      setView(v);
      const slot = v.totes.find((x) => x.order_id === nextTote.order_id)?.slot ?? nextTote.slot;
      return signal('ok', t('pick.toteAssigned', { order: nextTote.order_number, tote: value, slot }));
    } catch (err) {
      return signal('refused', errorText(err));
    }
  };

  const scanLocation = (value: string) => {
    setCode('');
    if (!view) return false;
    // A location with nothing left to pick is refused at once, with the server's own message.
    if (!open_.some((l) => sameCode(l.location_code, value)))
      return signal(
        'refused',
        errorText(
          new ApiError(409, 'PICK_WRONG_LOCATION', { location: value, expected: next?.location_code ?? '-' }, ''),
        ),
      );
    setLocation(value.trim());
    return signal('ok', t('pick.locationOk', { location: value.trim() }));
  };

  const scanProduct = async (value: string) => {
    setCode('');
    if (!view || !location || !current) return false;
    const id = scanId();
    const matching = here.find((l) => l.product_number === value.trim() || l.barcode === value.trim());
    try {
      const v = await withRetry(() =>
        pickScan(view.batch.id, {
          scan_id: id,
          location_code: location,
          barcode: value,
          quantity,
          ...(view.cluster && matching ? { order_id: matching.order_id } : {}),
        }),
      );
      setView(v);
      setQuantity(1);
      if (!v.lines.some((l) => left(l) > 0 && sameCode(l.location_code, location))) setLocation(null);
      const line = v.lines.find((l) => l.product_id === matching?.product_id && sameCode(l.location_code, location));
      const text = line
        ? t('pick.picked', { product: line.product_number, picked: line.picked, quantity: line.quantity })
        : t('pack.ok');
      if (v.complete) message.success(t('pick.complete', { number: v.batch.number }));
      return signal('ok', text);
    } catch (err) {
      return signal('refused', errorText(err));
    }
  };

  const reportShort = async () => {
    if (!view || !current) return;
    try {
      const v = await withRetry(() =>
        pickShort(view.batch.id, {
          scan_id: scanId(),
          location_id: current.location_id,
          product_id: current.product_id,
          ...(view.cluster ? { order_id: current.order_id } : {}),
        }),
      );
      setView(v);
      if (!v.lines.some((l) => left(l) > 0 && sameCode(l.location_code, current.location_code))) setLocation(null);
      signal(
        'ok',
        t('pick.shortDone', {
          product: current.product_number,
          location: current.location_code,
          quantity: view.cluster
            ? left(current)
            : here.filter((l) => l.product_id === current.product_id).reduce((s, l) => s + left(l), 0),
        }),
      );
    } catch (err) {
      signal('refused', errorText(err));
    }
  };

  // What the operator does now.
  const step = !view
    ? { step: t('pick.scanBatch') }
    : nextTote
      ? {
          step: t('pick.scanTote', { order: nextTote.order_number }),
          target: t('pick.toteSlot', { slot: nextTote.slot }),
          detail: nextTote.order_number,
        }
      : view.complete
        ? { step: t('pick.complete', { number: view.batch.number }) }
        : !current
          ? {
              step: t('pick.scanLocation'),
              target: next?.location_code,
              detail: next ? `${next.product_number} · ${next.product_name}` : undefined,
            }
          : {
              step: t('pick.scanProduct'),
              target: current.product_number,
              detail: `${current.product_name} · ${t('pick.toPick', {
                left: view.cluster
                  ? left(current)
                  : here.filter((l) => l.product_id === current.product_id).reduce((s, l) => s + left(l), 0),
                quantity: view.cluster
                  ? current.quantity
                  : here.filter((l) => l.product_id === current.product_id).reduce((s, l) => s + l.quantity, 0),
              })}`,
            };
  const tote = view?.cluster && current ? toteOf(current.order_id) : undefined;
  const onScan = !view ? openByNumber : nextTote ? scanTote : !current ? scanLocation : scanProduct;
  const scanLabel = !view ? t('pick.scanBatch') : step.step;

  return (
    <FloorScreen data-testid="deliver-pick">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <ScanStep
          step={step.step}
          target={step.target}
          detail={step.detail}
          progress={view ? t('pick.progress', { done, total: view.total_units }) : undefined}
        />
        {!handheld ? (
          // On a desktop the step is shown here (ScanStep shows on handhelds only), in the same large type.
          <Card size="small" data-testid="pick-step-desktop">
            <Typography.Text strong>{step.step}</Typography.Text>
            {step.target ? <div className="scan-step-target">{step.target}</div> : null}
            {step.detail ? <Typography.Text type="secondary">{step.detail}</Typography.Text> : null}
          </Card>
        ) : null}
        {tote ? (
          <Card size="small" className="pick-tote" data-testid="pick-tote">
            <Typography.Text strong style={{ fontSize: 22 }}>
              {t('pick.putInTote', { tote: tote.tote_code ?? '-', slot: tote.slot })}
            </Typography.Text>
          </Card>
        ) : null}
        {/* The last scan's answer; before the first scan the step above already says what to do. */}
        {cue ? (
          <Card
            size="small"
            data-testid="pick-cue"
            data-cue={cue.kind}
            style={{
              background: cue?.kind === 'refused' ? '#fff1f0' : cue?.kind === 'ok' ? '#f6ffed' : undefined,
              borderColor: cue?.kind === 'refused' ? '#ff4d4f' : cue?.kind === 'ok' ? '#52c41a' : undefined,
            }}
          >
            <Typography.Text strong type={cue?.kind === 'refused' ? 'danger' : undefined} data-testid="pick-cue-text">
              {cue.text}
            </Typography.Text>
          </Card>
        ) : null}
        {view ? (
          <Progress
            percent={view.total_units ? Math.round((done / view.total_units) * 100) : 100}
            success={{ percent: view.total_units ? Math.round((view.picked_units / view.total_units) * 100) : 100 }}
            status={view.short_units ? 'exception' : undefined}
            format={() => `${done}/${view.total_units}`}
            data-testid="pick-progress"
          />
        ) : null}
        {!view?.complete || nextTote ? (
          <Card size="small">
            <Space orientation="vertical" style={{ width: '100%' }}>
              {!view?.complete || nextTote ? (
                <ScanInput
                  ref={scanRef}
                  autoFocus
                  value={code}
                  onChange={setCode}
                  onScan={onScan}
                  placeholder={scanLabel}
                  aria-label={scanLabel}
                  data-testid="pick-scan"
                />
              ) : null}
              {!view ? (
                <Select
                  style={{ width: '100%' }}
                  placeholder={t('pick.chooseBatch')}
                  notFoundContent={t('pick.noBatch')}
                  options={batches.map((b) => ({
                    value: b.id,
                    label: `${b.number} · ${b.order_count} / ${b.unit_count}${b.warehouse_code ? ` · ${b.warehouse_code}` : ''}`,
                  }))}
                  onChange={(v: string) => open(v)}
                  data-testid="pick-batch-select"
                />
              ) : null}
              {view && current && !nextTote ? (
                <Space wrap>
                  <Typography.Text>{t('pick.quantity')}</Typography.Text>
                  <InputNumber
                    min={1}
                    max={10000}
                    value={quantity}
                    onChange={(v) => setQuantity(v ?? 1)}
                    data-testid="pick-quantity"
                  />
                  <Popconfirm
                    title={t('pick.shortConfirm', {
                      left: view.cluster
                        ? left(current)
                        : here.filter((l) => l.product_id === current.product_id).reduce((s, l) => s + left(l), 0),
                      product: current.product_number,
                      location: current.location_code,
                    })}
                    onConfirm={() => void reportShort()}
                  >
                    <Button danger data-testid="pick-short">
                      {t('pick.short')}
                    </Button>
                  </Popconfirm>
                  <Button onClick={() => setLocation(null)}>{t('pick.changeLocation')}</Button>
                </Space>
              ) : null}
              {view && !view.cluster && !clusterSetup && !view.batch.picking_started_at && view.totes.length > 1 ? (
                <Button block onClick={() => setClusterSetup(true)} data-testid="pick-cluster">
                  {t('pick.clusterStart')}
                </Button>
              ) : null}
            </Space>
          </Card>
        ) : (
          <Card size="small">
            <Space wrap>
              <Link to="/deliver-opser">
                <Button type="primary" data-testid="pick-to-packing">
                  {t('pick.toPacking')}
                </Button>
              </Link>
              <Button onClick={() => open(null)}>{t('pick.otherBatch')}</Button>
            </Space>
          </Card>
        )}
        {view ? (
          <Card size="small" title={`${view.batch.number} · ${t('pick.lines')}`}>
            <div className="pick-lines" data-testid="pick-lines">
              {lines.map((l) => {
                const slot = view.cluster ? toteOf(l.order_id) : undefined;
                return (
                  <div
                    key={`${l.order_id}|${l.location_id}|${l.product_id}|${l.expiry_date ?? ''}`}
                    className="pick-line"
                    data-done={left(l) === 0 ? 'true' : 'false'}
                  >
                    <Typography.Text strong>{l.location_code}</Typography.Text>{' '}
                    <Typography.Text>{l.product_number}</Typography.Text>{' '}
                    <Typography.Text type="secondary">
                      {l.picked}/{l.quantity}
                    </Typography.Text>
                    {slot ? <Tag>{`${t('pick.tote')} ${slot.tote_code ?? '-'} · ${slot.slot}`}</Tag> : null}
                    {l.short ? <Tag color="red">{`${t('pick.shortList')} ${l.short}`}</Tag> : null}
                    {left(l) === 0 && !l.short ? <Tag color="green">✓</Tag> : null}
                  </div>
                );
              })}
            </div>
            {!view.complete ? (
              <Button type="link" onClick={() => open(null)}>
                {t('pick.otherBatch')}
              </Button>
            ) : null}
          </Card>
        ) : null}
      </Space>
    </FloorScreen>
  );
}
