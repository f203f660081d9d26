/**
 * Child process of snapshot-kill9.int.test.ts: the daily storage snapshot's run (`takeStorageSnapshots`, as the
 * `usage.storage-snapshot` job runs it) on the database of DATA_DIR or DATABASE_URL, as of SNAPSHOT_NOW. Prints one
 * line per warehouse-day recorded, so the test can kill it with SIGKILL in the middle of the run.
 */
import { openDatabase } from '../../../db/client';
import { takeStorageSnapshots } from '../usage.jobs';

const database = await openDatabase(
  process.env.DATABASE_URL
    ? { databaseUrl: process.env.DATABASE_URL, poolSize: 2 }
    : { dataDir: process.env.DATA_DIR! },
);
console.log('ready');
const result = await takeStorageSnapshots(database.db, new Date(process.env.SNAPSHOT_NOW!), (warehouseId, day) =>
  console.log(`day ${warehouseId} ${day}`),
);
console.log(`done ${JSON.stringify(result)}`);
await database.close();
