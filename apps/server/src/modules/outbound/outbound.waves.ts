import type { TBatchDetail, TReleaseWave } from '@wms/contracts';
import type { Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import { BATCH_PREFIX, getBatch } from './outbound.batches';
import * as batchRepo from './outbound.batches.repository';
import type { TOutboundDeps } from './outbound.views';
import * as waveRepo from './outbound.waves.repository';

/**
 * Release by wave (issue #36): "release next wave" builds one collection batch — the same kind as /deliver-opser's —
 * sized for one picker, from the exported orders not yet in a batch, earliest ship-by first (late ones lead, their
 * ship-by passed first). Candidates are read and locked in pages with `FOR UPDATE SKIP LOCKED` inside the one
 * transaction that also creates the batch and assigns them, so two staff releasing at once never get the same order
 * and neither waits for the other.
 */

/** Only exported orders are released (an order being cancelled, or not exported yet, stays out of a wave). */
const WAVE_STATUSES = ['exported'] as const;
/** How many candidates one release reads at most while looking for orders that fit the unit limit. */
const MAX_SCANNED = 2000;

export async function releaseWave(deps: TOutboundDeps, actor: TActor, input: TReleaseWave): Promise<TBatchDetail> {
  const customerId = tenantOf(actor);
  const providerId = input.logistics_provider_id ?? null;
  const areaId = input.area_id ?? null;
  const id = await withTx(deps.db, async (tx) => {
    const scope = await waveRepo.waveScopeOk(tx, customerId, input.warehouse_id, providerId, areaId);
    if (!scope.warehouse) throw new AppError('INVALID_FIELD', { field: 'warehouse_id' });
    if (!scope.provider) throw new AppError('INVALID_FIELD', { field: 'logistics_provider_id' });
    if (!scope.area) throw new AppError('INVALID_FIELD', { field: 'area_id' });
    return releaseIn(tx, actor, customerId, {
      scope: { warehouseId: input.warehouse_id, providerIds: providerId ? [providerId] : null, areaId },
      maxOrders: input.max_orders,
      maxUnits: input.max_units ?? null,
      remark: input.remark ?? '',
      audit: { logistics_provider_id: providerId },
    });
  });
  return getBatch(deps, actor, id);
}

/** What one release takes: the orders' scope and the picker's limits. */
export interface TWaveRelease {
  scope: Omit<waveRepo.TWaveScope, 'statuses'>;
  maxOrders: number;
  maxUnits: number | null;
  remark: string;
  /** Recorded with the release in the audit trail (the carrier, the channel). */
  audit: Record<string, unknown>;
}

/**
 * Build one batch in the caller's transaction: candidates locked page by page (SKIP LOCKED) in ship-by order until the
 * limits are reached, then the batch and its orders. WAVE_EMPTY when nothing fits. Returns the batch's id.
 */
export async function releaseIn(tx: Tx, actor: TActor, customerId: string, release: TWaveRelease): Promise<string> {
  const maxUnits = release.maxUnits ?? Number.MAX_SAFE_INTEGER;
  const taken: waveRepo.TWaveCandidate[] = [];
  const seen: string[] = [];
  let units = 0;
  // Page through candidates in ship-by order; an order that would pass the unit limit is skipped (a smaller one
  // behind it may still fit), and stays locked by this transaction until it ends.
  while (taken.length < release.maxOrders && units < maxUnits && seen.length < MAX_SCANNED) {
    const page = await waveRepo.lockWaveCandidates(tx, customerId, {
      ...release.scope,
      statuses: WAVE_STATUSES,
      exclude: seen,
      limit: Math.min(release.maxOrders - taken.length, MAX_SCANNED - seen.length),
    });
    if (page.length === 0) break;
    for (const c of page) {
      seen.push(c.id);
      if (taken.length < release.maxOrders && units + c.units <= maxUnits) {
        taken.push(c);
        units += c.units;
      }
    }
  }
  if (taken.length === 0) throw new AppError('WAVE_EMPTY');
  const number = await nextDocumentNumber(tx, customerId, BATCH_PREFIX);
  const batch = await batchRepo.insertBatch(tx, {
    customer_id: customerId,
    number,
    warehouse_id: release.scope.warehouseId,
    remark: release.remark,
    created_by: actor.id,
  });
  const ids = taken.map((c) => c.id);
  // The rows are locked by this transaction: the conditional assignment takes every one of them.
  const moved = await batchRepo.assignBatch(tx, customerId, batch.id, ids, WAVE_STATUSES);
  if (moved.length !== ids.length) throw new AppError('INVALID_STATUS_TRANSITION', { action: 'batch' });
  await writeAudit(tx, actor, {
    action: 'release_wave',
    entity: 'collection_batch',
    entityId: batch.id,
    after: {
      number,
      orders: taken.map((c) => c.number),
      units,
      limits: { max_orders: release.maxOrders, max_units: release.maxUnits, area_id: release.scope.areaId },
      ...release.audit,
    },
  });
  return batch.id;
}

/** The statuses a wave takes, for a channel's open count. */
export const WAVE_ORDER_STATUSES = WAVE_STATUSES;
