import type {
  TBatchDetail,
  TCreateReleaseChannel,
  TListQuery,
  TReleaseChannel,
  TUpdateReleaseChannel,
} from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiMidnight, taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { constraintError } from '../../platform/listing';
import { loadShipRules, nextCutoffAt, type TShipRules } from '../ships';
import { getBatch } from './outbound.batches';
import * as lookupRepo from './outbound.lookups.repository';
import type { TOutboundDeps } from './outbound.views';
import { releaseIn, WAVE_ORDER_STATUSES } from './outbound.waves';
import * as waveRepo from './outbound.waves.repository';

/**
 * Saved release channels (issue #36, like OCA's `stock_release_channel`): named wave rules per warehouse — carriers,
 * convenience-store chain, cut-off, zone, which orders by ship-by, the picker's limits — listed with what each would
 * release now and its next cut-off; "release next wave" on a channel builds the batch by its rules through the same
 * SKIP LOCKED path as an ad-hoc wave (`outbound.waves.ts`), so two staff on one channel never share an order.
 */

type TChannelRules = Pick<
  waveRepo.TChannelRow,
  'warehouse_id' | 'logistics_provider_ids' | 'cvs_chain' | 'area_id' | 'priority' | 'cutoff_time'
>;

/** The orders a channel takes now: its scope with the ship-by limit of its priority. */
function scopeOf(c: TChannelRules, now: Date): Omit<waveRepo.TWaveScope, 'statuses'> {
  const shipByBefore = c.priority === 'late' ? now : c.priority === 'due' ? taipeiMidnight(taipeiToday(now), 1) : null;
  return {
    warehouseId: c.warehouse_id,
    providerIds: c.logistics_provider_ids,
    areaId: c.area_id,
    cvsChain: c.cvs_chain,
    shipByBefore,
  };
}

async function toChannel(
  ex: Executor,
  customerId: string,
  row: waveRepo.TChannelView,
  rules: TShipRules,
  now: Date,
): Promise<TReleaseChannel> {
  const open = await waveRepo.countWaveCandidates(ex, customerId, {
    ...scopeOf(row, now),
    statuses: WAVE_ORDER_STATUSES,
  });
  return {
    id: row.id,
    warehouse_id: row.warehouse_id,
    warehouse_code: row.warehouse_code,
    name: row.name,
    logistics_provider_ids: row.logistics_provider_ids,
    provider_names: row.provider_names,
    cvs_chain: row.cvs_chain as TReleaseChannel['cvs_chain'],
    cutoff_time: row.cutoff_time,
    area_id: row.area_id,
    area_code: row.area_code,
    priority: row.priority as TReleaseChannel['priority'],
    max_orders: row.max_orders,
    max_units: row.max_units,
    sequence: row.sequence,
    active: row.active,
    open_count: open,
    next_cutoff_at: nextCutoffAt(
      rules,
      row.warehouse_id,
      row.logistics_provider_ids,
      row.cvs_chain,
      row.cutoff_time,
      now,
    ).toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The audit picture of a channel: its saved rules. */
const rulesOf = (r: waveRepo.TChannelRow) => ({
  warehouse_id: r.warehouse_id,
  name: r.name,
  logistics_provider_ids: r.logistics_provider_ids,
  cvs_chain: r.cvs_chain,
  cutoff_time: r.cutoff_time,
  area_id: r.area_id,
  priority: r.priority,
  max_orders: r.max_orders,
  max_units: r.max_units,
  sequence: r.sequence,
  active: r.active,
});

export async function listChannels(
  deps: TOutboundDeps,
  actor: TActor,
  q: TListQuery & { warehouse_id?: string; active?: boolean },
  now: Date = new Date(),
): Promise<{ count: number; results: TReleaseChannel[] }> {
  const customerId = tenantOf(actor);
  const { rows, count } = await waveRepo.listChannels(deps.db, customerId, q);
  if (rows.length === 0) return { count, results: [] };
  const rules = await loadShipRules(deps.db, customerId, now);
  const results: TReleaseChannel[] = [];
  // One count per channel on the page, one after the other (a page is a handful; the pool stays free for others).
  for (const r of rows) results.push(await toChannel(deps.db, customerId, r, rules, now));
  return { count, results };
}

export async function getChannel(deps: TOutboundDeps, actor: TActor, id: string): Promise<TReleaseChannel> {
  const customerId = tenantOf(actor);
  const row = await waveRepo.findChannel(deps.db, customerId, id);
  if (!row) throw notFound();
  const now = new Date();
  return toChannel(deps.db, customerId, row, await loadShipRules(deps.db, customerId, now), now);
}

/** The warehouse, carriers and zone of a channel are the seller's, the zone in that warehouse; errors name the field. */
async function checkRules(ex: Executor, customerId: string, c: TChannelRules & { max_orders: number }) {
  const scope = await waveRepo.waveScopeOk(ex, customerId, c.warehouse_id, null, c.area_id);
  if (!scope.warehouse) throw new AppError('INVALID_FIELD', { field: 'warehouse_id' });
  if (!scope.area) throw new AppError('INVALID_FIELD', { field: 'area_id' });
  const ids = c.logistics_provider_ids;
  const dup = ids.findIndex((p, i) => ids.indexOf(p) !== i);
  if (dup >= 0) throw new AppError('DUPLICATE_VALUE', { field: `logistics_provider_ids.${dup}` });
  const own = await lookupRepo.ownProviders(ex, customerId, ids);
  const foreign = ids.findIndex((p) => !own.has(p));
  if (foreign >= 0) throw new AppError('INVALID_FIELD', { field: `logistics_provider_ids.${foreign}` });
}

export async function createChannel(
  deps: TOutboundDeps,
  actor: TActor,
  input: TCreateReleaseChannel,
): Promise<TReleaseChannel> {
  const customerId = tenantOf(actor);
  const values = {
    customer_id: customerId,
    warehouse_id: input.warehouse_id,
    name: input.name,
    logistics_provider_ids: input.logistics_provider_ids ?? [],
    cvs_chain: input.cvs_chain ?? null,
    cutoff_time: input.cutoff_time ?? null,
    area_id: input.area_id ?? null,
    priority: input.priority ?? 'all',
    max_orders: input.max_orders,
    max_units: input.max_units ?? null,
    sequence: input.sequence ?? 10,
    active: input.active ?? true,
  };
  const id = await withTx(deps.db, async (tx) => {
    await checkRules(tx, customerId, values);
    const id = await waveRepo.insertChannel(tx, values).catch((e) => constraintError(e, 'name'));
    const row = (await waveRepo.findChannel(tx, customerId, id))!;
    await writeAudit(tx, actor, { action: 'create', entity: 'release_channel', entityId: id, after: rulesOf(row) });
    return id;
  });
  return getChannel(deps, actor, id);
}

export async function updateChannel(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  patch: TUpdateReleaseChannel,
): Promise<TReleaseChannel> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await waveRepo.findChannel(tx, customerId, id, true);
    if (!before) throw notFound();
    const merged = { ...before, ...patch };
    // Another warehouse: a zone of the old one does not follow.
    if (patch.warehouse_id && patch.warehouse_id !== before.warehouse_id && patch.area_id === undefined)
      merged.area_id = null;
    await checkRules(tx, customerId, merged);
    await waveRepo
      .updateChannel(tx, customerId, id, { ...patch, area_id: merged.area_id })
      .catch((e) => constraintError(e, 'name'));
    const after = (await waveRepo.findChannel(tx, customerId, id))!;
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'release_channel',
      entityId: id,
      before: rulesOf(before),
      after: rulesOf(after),
    });
  });
  return getChannel(deps, actor, id);
}

export async function deleteChannel(deps: TOutboundDeps, actor: TActor, id: string): Promise<{ ok: true }> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await waveRepo.findChannel(tx, customerId, id, true);
    if (!before) throw notFound();
    await waveRepo.deleteChannel(tx, customerId, id);
    await writeAudit(tx, actor, { action: 'delete', entity: 'release_channel', entityId: id, before: rulesOf(before) });
  });
  return { ok: true };
}

/**
 * "Release next wave" on a channel: one batch by its saved rules. The channel row is read (not locked: two staff on
 * one channel release at once, SKIP LOCKED keeps their orders apart); an inactive channel refuses.
 */
export async function releaseChannelWave(deps: TOutboundDeps, actor: TActor, id: string): Promise<TBatchDetail> {
  const customerId = tenantOf(actor);
  const batchId = await withTx(deps.db, async (tx) => {
    const c = await waveRepo.findChannel(tx, customerId, id);
    if (!c) throw notFound();
    if (!c.active) throw new AppError('CHANNEL_INACTIVE');
    return releaseIn(tx, actor, customerId, {
      scope: scopeOf(c, new Date()),
      maxOrders: c.max_orders,
      maxUnits: c.max_units,
      remark: c.name,
      audit: { release_channel_id: c.id, release_channel: c.name, logistics_provider_ids: c.logistics_provider_ids },
    });
  });
  return getBatch(deps, actor, batchId);
}
