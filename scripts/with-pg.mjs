// Run a command with TEST_DATABASE_URL pointing at a throw-away PostgreSQL cluster, e.g.
//   node scripts/with-pg.mjs npx vitest run --project server apps/server/src/modules/stock
import { spawnSync } from 'node:child_process';
import { startCluster } from './pg-cluster.mjs';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: node scripts/with-pg.mjs <command> [args…]');
  process.exit(2);
}
const cluster = await startCluster();
let status = 1;
try {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: cluster.url } });
  status = r.status ?? 1;
} finally {
  cluster.stop();
}
process.exit(status);
