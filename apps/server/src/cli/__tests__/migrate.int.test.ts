import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, queryRows } from '../../db/client';
import { createScratchDatabase } from '../../test/harness';

const root = path.resolve(import.meta.dirname, '../../../../..');

function runMigrate(env: Record<string, string>) {
  return spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/cli/migrate.ts')], {
    env: { ...process.env, DATABASE_URL: '', JWT_SECRET: 'x'.repeat(40), APP_SECRET_KEY: 'a'.repeat(64), ...env },
    encoding: 'utf8',
  });
}

describe('npm run migrate', () => {
  it('applies every migration to a new PGlite directory, again without change, and exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-migrate-'));
    try {
      const first = runMigrate({ DATA_DIR: dataDir });
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/^migrations applied \(pglite, /);
      const again = runMigrate({ DATA_DIR: dataDir });
      expect(again.status).toBe(0);

      const files = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql'));
      const database = await openDatabase({ dataDir });
      try {
        const [applied] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        expect(applied!.n).toBe(files.length);
        const [users] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from users`);
        expect(users!.n).toBe(0);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('migrates a new PostgreSQL database (with the shared secrets)', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    try {
      const r = runMigrate({ DATABASE_URL: scratch.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'wms-migrate-')) });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^migrations applied \(postgres\)/);
      const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
      try {
        const [applied] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        expect(applied!.n).toBe(readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length);
      } finally {
        await database.close();
      }
    } finally {
      await scratch.drop();
    }
  });

  it('exits 1 naming the error when the database cannot be reached', () => {
    const r = runMigrate({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^migrate failed: .*ECONNREFUSED/);
  });
});
