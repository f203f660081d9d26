import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A 100,000-row order file (50,000 orders of two lines) imported as a job in a child process whose V8 heap is capped
 * at HEAP_MB: the importer streams the file twice and keeps only per-order keys, so it fits (loading the same file as a
 * whole exceljs Workbook under this cap dies with "JavaScript heap out of memory" — tried by hand when this was
 * written). Every row checked, every order written in one transaction, the progress bar full.
 *
 * The full 100,000 rows run on PostgreSQL, the production engine, where the import's paths differ (document numbers
 * through a side connection, the pool); PGlite imports a 10,000-row file through the same job with the same checks.
 */
const ROWS = Number(process.env.OUTBOUND_IMPORT_ROWS ?? (process.env.TEST_DATABASE_URL ? 100_000 : 10_000));
const HEAP_MB = 256;

describe('order import at scale', () => {
  it(`imports ${ROWS} rows as a job within a ${HEAP_MB} MB heap`, () => {
    const root = path.resolve(import.meta.dirname, '../../../../../..');
    const child = spawnSync(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', path.join(import.meta.dirname, 'import-large.child.ts')],
      { cwd: root, encoding: 'utf8', env: { ...process.env, OUTBOUND_IMPORT_ROWS: String(ROWS) }, timeout: 600_000 },
    );
    expect(child.status, `${child.stderr}`.slice(-3000)).toBe(0);
    const line = child.stdout.trim().split('\n').at(-1)!;
    const out = JSON.parse(line) as {
      state: string;
      result: Record<string, unknown>;
      progress: number;
      total: number;
      orders: number;
      lines: number;
      seconds: number;
      megabytes: number;
      engine: string;
    };
    expect(out).toMatchObject({
      state: 'succeeded',
      result: { rows: ROWS, orders: ROWS / 2, created: ROWS / 2, skipped_duplicates: 0 },
      orders: ROWS / 2,
      lines: ROWS,
    });
    expect(out.progress).toBe(out.total);
    console.info(
      `import of ${ROWS} rows (${out.megabytes.toFixed(1)} MB xlsx, ${out.engine}) under a ${HEAP_MB} MB heap: ${out.seconds.toFixed(1)} s`,
    );
  }, 700_000);
});
