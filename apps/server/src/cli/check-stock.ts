/**
 * `npm run check:stock`: verify on any database that every balance equals its ledger, nothing is negative and
 * reservations add up. Exit code 0 when all invariants hold, 1 when any is violated, 2 on a usage/connection error.
 * Reads DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite; stop the server first, PGlite allows one process).
 * Options: --customer <uuid> to check one seller, --limit <n> violations per rule (default 100), --json.
 * It signs and decrypts nothing, so JWT_SECRET and APP_SECRET_KEY are not needed (PostgreSQL included), and it does not
 * migrate a PostgreSQL database (shared with the app; `npm run migrate` does that).
 */
import { loadConfig } from '../config';
import { migrateDatabase, openDatabase } from '../db/client';
import { checkStockInvariants } from '../modules/stock/stock.invariants';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const config = loadConfig(process.env, {}, { secrets: 'unused' });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    poolSize: 2,
  });
  try {
    // A PGlite directory is this tool's alone while it runs (the server is stopped); it is brought to the schema first.
    if (database.engine === 'pglite') await migrateDatabase(database);
    const started = Date.now();
    const violations = await checkStockInvariants(database.db, {
      customerId: arg('customer'),
      limit: arg('limit') ? Number(arg('limit')) : undefined,
    });
    const ms = Date.now() - started;
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify({ ok: violations.length === 0, engine: database.engine, ms, violations }, null, 2));
    } else if (violations.length === 0) {
      console.log(`stock invariants hold (${database.engine}, checked in ${ms} ms)`);
    } else {
      console.log(`${violations.length} stock invariant violation(s) (${database.engine}):`);
      for (const v of violations) console.log(`  ${v.rule.padEnd(30)} balance ${v.balanceId ?? '-'}  ${v.detail}`);
    }
    return violations.length === 0 ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
