import type { TBatchDetail, TReleaseWave } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import { BATCH_PREFIX, getBatch } from './outbound.batches';
import * as repo from './outbound.repository';
import type { TOutboundDeps } from './outbound.views';

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
  const maxUnits = input.max_units ?? Number.MAX_SAFE_INTEGER;
  const id = await withTx(deps.db, async (tx) => {
    const scope = await repo.waveScopeOk(tx, customerId, input.warehouse_id, providerId, areaId);
    if (!scope.warehouse) throw new AppError('INVALID_FIELD', { field: 'warehouse_id' });
    if (!scope.provider) throw new AppError('INVALID_FIELD', { field: 'logistics_provider_id' });
    if (!scope.area) throw new AppError('INVALID_FIELD', { field: 'area_id' });
    const taken: repo.TWaveCandidate[] = [];
    const seen: string[] = [];
    let units = 0;
    // Page through candidates in ship-by order; an order that would pass the unit limit is skipped (a smaller one
    // behind it may still fit), and stays locked by this transaction until it ends.
    while (taken.length < input.max_orders && units < maxUnits && seen.length < MAX_SCANNED) {
      const page = await repo.lockWaveCandidates(tx, customerId, {
        warehouseId: input.warehouse_id,
        providerId,
        areaId,
        statuses: WAVE_STATUSES,
        exclude: seen,
        limit: Math.min(input.max_orders - taken.length, MAX_SCANNED - seen.length),
      });
      if (page.length === 0) break;
      for (const c of page) {
        seen.push(c.id);
        if (taken.length < input.max_orders && units + c.units <= maxUnits) {
          taken.push(c);
          units += c.units;
        }
      }
    }
    if (taken.length === 0) throw new AppError('WAVE_EMPTY');
    const number = await nextDocumentNumber(tx, customerId, BATCH_PREFIX);
    const batch = await repo.insertBatch(tx, {
      customer_id: customerId,
      number,
      warehouse_id: input.warehouse_id,
      remark: input.remark ?? '',
      created_by: actor.id,
    });
    const ids = taken.map((c) => c.id);
    // The rows are locked by this transaction: the conditional assignment takes every one of them.
    const moved = await repo.assignBatch(tx, customerId, batch.id, ids, WAVE_STATUSES);
    if (moved.length !== ids.length) throw new AppError('INVALID_STATUS_TRANSITION', { action: 'batch' });
    await writeAudit(tx, actor, {
      action: 'release_wave',
      entity: 'collection_batch',
      entityId: batch.id,
      after: {
        number,
        orders: taken.map((c) => c.number),
        units,
        limits: { max_orders: input.max_orders, max_units: input.max_units ?? null, area_id: areaId },
        logistics_provider_id: providerId,
      },
    });
    return batch.id;
  });
  return getBatch(deps, actor, id);
}
