import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../../db/client';
import { customers, stock_balances } from '../../db/schema';
import { withTx } from '../../db/tx';
import { stockFactory } from '../../modules/stock/__tests__/factories';
import { postInbound } from '../../modules/stock/stock.engine';
import { createScratchDatabase } from '../../test/harness';

const root = path.resolve(import.meta.dirname, '../../../../..');

function runCheck(dataDir: string) {
  return spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/cli/check-stock.ts')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      JWT_SECRET: 'x'.repeat(40),
      APP_SECRET_KEY: 'a'.repeat(64),
    },
    encoding: 'utf8',
  });
}

describe('npm run check:stock', () => {
  it('passes on a consistent database and names the rule when a balance drifts from its ledger', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-check-'));
    const database = await openDatabase({ dataDir });
    await migrateDatabase(database);
    const [c] = await database.db.insert(customers).values({ name: 'Checked seller' }).returning();
    const f = stockFactory(database.db, c!.id);
    const wh = await f.warehouse();
    const loc = await f.location(wh.id);
    const product = await f.product();
    await withTx(database.db, (tx) =>
      postInbound(
        tx,
        { customerId: c!.id, userId: null },
        {
          document: { type: 'adjustment', id: null, number: 'T-1' },
          lines: [{ productId: product.id, locationId: loc.id, expiryDate: null, quantity: 7 }],
        },
      ),
    );
    await database.close();

    const ok = runCheck(dataDir);
    expect(ok.stdout).toContain('stock invariants hold');
    expect(ok.status).toBe(0);

    // Drift a balance behind the engine's back, as a bad manual fix in production would.
    const db2 = await openDatabase({ dataDir });
    await db2.db
      .update(stock_balances)
      .set({ on_hand: sql`${stock_balances.on_hand} + 1` })
      .where(eq(stock_balances.product_id, product.id));
    await db2.close();
    const bad = runCheck(dataDir);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('balance_not_ledger_sum');
    expect(bad.stdout).toContain('on_hand=8 ledger=7');
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'runs on PostgreSQL without JWT_SECRET and APP_SECRET_KEY (a read-only check), writing no keys',
    async () => {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      try {
        const database = await openDatabase({ databaseUrl: scratch.url });
        await migrateDatabase(database);
        await database.db.insert(customers).values({ name: 'Checked on PostgreSQL' });
        await database.close();
        const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-check-pg-'));
        const r = spawnSync(
          path.join(root, 'node_modules/.bin/tsx'),
          [path.join(root, 'apps/server/src/cli/check-stock.ts')],
          {
            env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: scratch.url, JWT_SECRET: '', APP_SECRET_KEY: '' },
            encoding: 'utf8',
          },
        );
        expect(r.stderr).toBe('');
        expect(r.stdout).toContain('stock invariants hold (postgres');
        expect(r.status).toBe(0);
        expect(existsSync(path.join(dataDir, 'keys.json'))).toBe(false);
      } finally {
        await scratch.drop();
      }
    },
    60_000,
  );
});
