/**
 * `npm run migrate` (compiled: `node apps/server/dist/migrate.js`): apply the pending SQL migrations to the database
 * of DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite; stop the server first, PGlite allows one process), then exit.
 * The server also migrates at start; run this before starting new app processes on PostgreSQL so that none of them
 * starts on a schema it does not know (several processes racing are kept apart by an advisory lock either way).
 * Exit code 0 when the schema is current, 1 on an error (the message says which).
 */
import { loadConfig } from '../config';
import { migrateDatabase, openDatabase } from '../db/client';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    poolSize: 2,
  });
  try {
    const started = Date.now();
    await migrateDatabase(database);
    console.log(
      `migrations applied (${database.engine}${database.engine === 'pglite' ? `, ${config.dataDir}` : ''}) in ${Date.now() - started} ms`,
    );
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`migrate failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
