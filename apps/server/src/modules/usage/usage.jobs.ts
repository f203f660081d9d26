import { z } from 'zod';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { taipeiMidnight, taipeiToday } from '../../platform/calendar';
import { defineJob } from '../../platform/jobs';
import { stockWarehouses, storedAt, type TStoredRow } from '../stock';
import * as repo from './usage.repository';
import { recordWork, type TWork } from './usage.service';
import * as snapshotRepo from './usage.snapshots.repository';

/**
 * The daily storage snapshot (issue #35): once per day and warehouse, what each seller stored at the end of the day
 * (Asia/Taipei) — read back from the stock ledger, so a day missed while the server was down is recorded as it was —
 * and its storage charges (per location-day and per cubic-metre-day, units received within the card's free days left
 * out). Each warehouse-day is one transaction that first claims the day (usage_snapshot_runs): all or nothing, and a
 * re-run or a second process adds nothing.
 */

/** Days a run catches up at most (a longer outage leaves the older days unrecorded; they can't be billed anyway). */
export const SNAPSHOT_CATCH_UP_DAYS = 62;

const DAY_MS = 86_400_000;

/** `day` plus `n` days (`YYYY-MM-DD`). */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Micro-cm³ (6 decimals, as length × width × height of numeric(10,2)) of a decimal string. */
function micro(v: string): bigint {
  const [whole = '0', frac = ''] = v.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6));
}

/** Litres of `rows` (units × unit volume), rounded half up to whole litres. */
function litresOf(rows: Array<{ units: number; unit_cm3: string }>): number {
  const cm3Micro = rows.reduce((s, r) => s + BigInt(r.units) * micro(r.unit_cm3), 0n);
  // 1 litre = 1,000 cm³ = 10^9 micro-cm³.
  return Number((cm3Micro + 500_000_000n) / 1_000_000_000n);
}

/** One seller's figures of a day from its rows: held, and charged (units older than the free days). */
function figures(rows: TStoredRow[]) {
  const charged = rows.map((r) => ({ ...r, units: r.held - r.fresh }));
  return {
    locations: new Set(rows.map((r) => r.location_id)).size,
    units: rows.reduce((s, r) => s + r.held, 0),
    litres: litresOf(rows.map((r) => ({ units: r.held, unit_cm3: r.unit_cm3 }))),
    charged_locations: new Set(charged.filter((r) => r.units > 0).map((r) => r.location_id)).size,
    charged_units: charged.reduce((s, r) => s + r.units, 0),
    charged_litres: litresOf(charged),
  };
}

/**
 * Record one warehouse's day, in one transaction. Answers how many sellers were recorded, or null when the day was
 * recorded already.
 */
export async function snapshotDay(db: Db, warehouseId: string, day: string): Promise<number | null> {
  return withTx(db, async (tx) => {
    if (!(await snapshotRepo.claimSnapshotDay(tx, warehouseId, day))) return null;
    const end = taipeiMidnight(day, 1);
    // Who stored anything, then each one's free days (the card of the day) and the units still free.
    const held = await storedAt(tx, warehouseId, end, {}, end);
    const sellers = [...new Set(held.map((r) => r.customer_id))];
    const freeDays = new Map<string, number>();
    const freeSince: Record<string, string> = {};
    for (const c of sellers) {
      const card = await repo.cardFor(tx, c, day);
      const days = card?.storage_free_days ?? 0;
      freeDays.set(c, days);
      // Received on or after the start of the day `days - 1` days before: free on each of its first `days` days.
      freeSince[c] = taipeiMidnight(addDays(day, 1 - days)).toISOString();
    }
    const rows = Object.values(freeSince).some((v) => v !== end.toISOString())
      ? await storedAt(tx, warehouseId, end, freeSince, end)
      : held;
    const works: TWork[] = [];
    for (const c of sellers) {
      const f = figures(rows.filter((r) => r.customer_id === c));
      const snap = await snapshotRepo.insertSnapshot(tx, {
        warehouse_id: warehouseId,
        customer_id: c,
        day,
        free_days: freeDays.get(c) ?? 0,
        ...f,
      });
      works.push({
        customerId: c,
        sourceType: 'storage_snapshot',
        sourceId: snap.id,
        documentNumber: `SNAP-${day.replaceAll('-', '')}`,
        at: new Date(end.getTime() - 1),
        day,
        quantities: { storage_location_day: f.charged_locations, storage_cbm_day: f.charged_litres },
      });
    }
    await recordWork(tx, works);
    await snapshotRepo.setSnapshotSellers(tx, warehouseId, day, sellers.length);
    return sellers.length;
  });
}

/**
 * Snapshot every warehouse up to yesterday (Asia/Taipei, by the application's clock): the days after the warehouse's
 * last recorded day (at most SNAPSHOT_CATCH_UP_DAYS), or only yesterday for a warehouse never recorded.
 */
export async function takeStorageSnapshots(
  db: Db,
  now = new Date(),
  /** Told after each warehouse-day recorded (the kill -9 test watches its progress). */
  onDay?: (warehouseId: string, day: string) => void,
) {
  const yesterday = addDays(taipeiToday(now), -1);
  const earliest = addDays(yesterday, 1 - SNAPSHOT_CATCH_UP_DAYS);
  let days = 0;
  let sellers = 0;
  for (const warehouseId of await stockWarehouses(db)) {
    const last = await snapshotRepo.lastSnapshotDay(db, warehouseId);
    let day = last ? addDays(last, 1) : yesterday;
    if (day < earliest) day = earliest;
    for (; day <= yesterday; day = addDays(day, 1)) {
      const n = await snapshotDay(db, warehouseId, day);
      if (n !== null) {
        days++;
        sellers += n;
        onDay?.(warehouseId, day);
      }
    }
  }
  return { days, sellers, through: yesterday };
}

/** Every day at 00:10 in Taipei: yesterday's snapshot (and any day missed before it). */
export const usageStorageSnapshot = defineJob(
  'usage.storage-snapshot',
  z.object({}),
  async ({ db }) => takeStorageSnapshots(db),
  { cron: { schedule: '10 0 * * *', tz: 'Asia/Taipei', payload: {} }, retryLimit: 3 },
);
