import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../test/harness';
import type { Db } from '../client';
import { customers, logistics_providers } from '../schema';
import { tenantTable } from '../tenant-table';
import { withTx } from '../tx';

/**
 * The tenant-scoped table helper on a real table (logistics_providers) with two sellers: whatever a call is given,
 * it never returns, changes or removes the other seller's row, and never makes or moves a row into the other seller.
 */
let ctx: TTestContext;
let db: Db;
let sellerA: string;
let sellerB: string;
const providers = tenantTable(logistics_providers);

beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
  db = ctx.deps.database.db;
  const made = await db
    .insert(customers)
    .values([{ name: 'Tenant helper A' }, { name: 'Tenant helper B' }])
    .returning({ id: customers.id });
  sellerA = made[0]!.id;
  sellerB = made[1]!.id;
});
afterAll(() => ctx?.close());

/** The row as stored, read without the helper. */
const stored = async (id: string) =>
  (await db.select().from(logistics_providers).where(eq(logistics_providers.id, id)))[0];

describe(`tenantTable (${TEST_ENGINE})`, () => {
  it('reads only the seller’s rows: get, byIds and list leave the other seller’s row out', async () => {
    const a = await providers.insert(db, sellerA, { code: 'TT-A1', name: 'A one' });
    const b = await providers.insert(db, sellerB, { code: 'TT-B1', name: 'B one' });
    expect(a.customer_id).toBe(sellerA);
    expect(b.customer_id).toBe(sellerB);

    expect((await providers.get(db, sellerA, a.id))?.code).toBe('TT-A1');
    expect(await providers.get(db, sellerA, b.id)).toBeUndefined();
    expect((await providers.byIds(db, sellerA, [a.id, b.id])).map((r) => r.id)).toEqual([a.id]);
    expect(await providers.byIds(db, sellerA, [])).toEqual([]);
    const listed = await providers.list(db, sellerA);
    expect(listed.map((r) => r.id)).toContain(a.id);
    expect(listed.every((r) => r.customer_id === sellerA)).toBe(true);
    // A condition of the caller narrows within the seller, never widens past it.
    expect(await providers.list(db, sellerA, eq(logistics_providers.code, 'TT-B1'))).toEqual([]);
    expect((await providers.list(db, sellerB, eq(logistics_providers.code, 'TT-B1'))).map((r) => r.id)).toEqual([b.id]);
  });

  it('changes and removes only the seller’s rows: another seller’s id answers undefined and stays as it was', async () => {
    const b = await providers.insert(db, sellerB, { code: 'TT-B2', name: 'B two' });
    const before = await stored(b.id);

    expect(await providers.update(db, sellerA, b.id, { name: 'taken over' })).toBeUndefined();
    expect(await providers.remove(db, sellerA, b.id)).toBeUndefined();
    expect(await stored(b.id)).toEqual(before);

    const changed = await providers.update(db, sellerB, b.id, { name: 'B two, renamed' });
    expect(changed?.name).toBe('B two, renamed');
    expect((await providers.remove(db, sellerB, b.id))?.id).toBe(b.id);
    expect(await stored(b.id)).toBeUndefined();
  });

  it('never writes a row into another seller: insert stamps the caller’s seller, update cannot move a row', async () => {
    // A value of the wrong seller smuggled in (e.g. from a request body) is overridden, not obeyed.
    const smuggled = { code: 'TT-A3', name: 'A three', customer_id: sellerB } as { code: string; name: string };
    const a = await providers.insert(db, sellerA, smuggled);
    expect((await stored(a.id))?.customer_id).toBe(sellerA);

    const moved = await providers.update(db, sellerA, a.id, { name: 'A three, renamed', customer_id: sellerB } as {
      name: string;
    });
    expect(moved?.customer_id).toBe(sellerA);
    expect((await stored(a.id))?.customer_id).toBe(sellerA);
    expect(await providers.get(db, sellerB, a.id)).toBeUndefined();
  });

  it('works inside a transaction, and its writes roll back with it', async () => {
    await expect(
      withTx(db, async (tx) => {
        await providers.insert(tx, sellerA, { code: 'TT-A4', name: 'A four' });
        expect(await providers.list(tx, sellerA, eq(logistics_providers.code, 'TT-A4'))).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await providers.list(db, sellerA, eq(logistics_providers.code, 'TT-A4'))).toEqual([]);
  });
});
