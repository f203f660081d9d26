import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startFakeEcpay } from '../apps/server/src/test/fakes/fake-ecpay';
import { startFakeNewebPay } from '../apps/server/src/test/fakes/fake-newebpay';
import { startFakeShopee } from '../apps/server/src/test/fakes/fake-shopee';
import { startFakeTapPay } from '../apps/server/src/test/fakes/fake-tappay';
import { startFakeTcat } from '../apps/server/src/test/fakes/fake-tcat';
import { DEMO, E2E_PORT } from './helpers/accounts';

const root = path.resolve(import.meta.dirname, '..');

export { DEMO, E2E_PORT };

/** Refuse a port something else listens on: the health check would otherwise reach another run's server. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use: set E2E_PORT to a free port`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

const E2E_BUILD_ID = 'e2e-build-1';

/**
 * What the web build is made from — every file of apps/web and packages/contracts (but their dist and
 * node_modules), the lock file, the shared tsconfig and package.json — hashed with the build id. The build writes it
 * beside its output; a later run finding the same stamp there reuses the build (vite empties dist/ whenever anything
 * else builds into it, the stamp with it).
 */
function webBuildStamp(buildId: string): string {
  const hash = createHash('sha256').update(`build_id=${buildId}\n`);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(path.join(root, 'apps/web'));
  walk(path.join(root, 'packages/contracts'));
  files.push(...['package-lock.json', 'package.json', 'tsconfig.base.json'].map((f) => path.join(root, f)));
  for (const file of files.sort()) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Build the web app (unless its build is up to date), start the server on a fresh embedded database, and stop it afterwards. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium))
    throw new Error(`Chromium not found at ${chromium}: apt-get install -y chromium (or run .ci/run)`);
  const stamp = webBuildStamp(E2E_BUILD_ID);
  const stampFile = path.join(root, 'apps/web/dist/.e2e-build-stamp');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log('web build is up to date (apps/web/dist, same sources): not rebuilt');
  } else {
    const build = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BUILD_ID: E2E_BUILD_ID },
    });
    if (build.status !== 0) throw new Error('web build failed');
    writeFileSync(stampFile, stamp);
  }
  await assertPortFree(E2E_PORT);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  // A fake Shopee on 127.0.0.1 (shopee.spec.ts): its authorisation page sends the browser back with a code.
  const shopee = await startFakeShopee({ port: E2E_PORT + 7, partnerKey: 'shpk-e2e-partner-key-0123456789' });
  // A fake ECPay logistics host on 127.0.0.1 (carriers.spec.ts): Express/Create with the published stage credentials.
  const ecpay = await startFakeEcpay({ port: E2E_PORT + 8 });
  // A fake T-cat Egs host on 127.0.0.1 (carriers.spec.ts): PrintOBT numbers and DownloadOBT label PDFs.
  const tcat = await startFakeTcat({ port: E2E_PORT + 9 });
  // Fake TapPay and NewebPay (billing.spec.ts). No TAPPAY_APP_ID: /tappay uses the sandbox stub TPDirect.
  const newebpay = await startFakeNewebPay({ port: E2E_PORT + 10 });
  const tappay = await startFakeTapPay({ port: E2E_PORT + 11 });
  const env = {
    ...process.env,
    ECPAY_LOGISTICS_URL: ecpay.url,
    TCAT_EGS_URL: tcat.url,
    TAPPAY_BASE_URL: tappay.url,
    TAPPAY_PARTNER_KEY: tappay.partnerKey,
    TAPPAY_MERCHANT_ID: tappay.merchantId,
    NEWEBPAY_BASE_URL: newebpay.url,
    NEWEBPAY_MERCHANT_ID: newebpay.merchantId,
    NEWEBPAY_HASH_KEY: newebpay.hashKey,
    NEWEBPAY_HASH_IV: newebpay.hashIv,
    SHOPEE_PARTNER_ID: String(shopee.partnerId),
    SHOPEE_PARTNER_KEY: shopee.partnerKey,
    SHOPEE_BASE_URL: shopee.url,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO_CUSTOMER_EMAIL: DEMO.customer.email,
    DEMO_CUSTOMER_PASSWORD: DEMO.customer.password,
    DEMO_EMPLOYEE_EMAIL: DEMO.employee.email,
    DEMO_EMPLOYEE_PASSWORD: DEMO.employee.password,
    PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
    LOG_LEVEL: 'warn',
    // partner-api.spec.ts receives callbacks on 127.0.0.1: this operator allows private callback targets.
    OUTGOING_ALLOW_PRIVATE: '1',
    LABEL_PRINTER_ALLOW_LOOPBACK: '1',
    // Real back-offs, 20× shorter (a callback's first retry after 5–10 s instead of 100–200 s).
    JOB_RETRY_DELAY_SCALE: '0.05',
    // /database-clean (retention.spec.ts): "older than N months" means "finished before now" on this test server.
    RETENTION_AGE_SCALE: '0',
    // usage-statements.spec.ts: staff issue the statement of this month (its work is done today).
    USAGE_ISSUE_OPEN_MONTH: '1',
    // Every browser of the run is one client address: the per-address budgets are tested by the server suite.
    AUTH_IP_LIMIT_PER_MINUTE: '100000',
    SIGNUP_IP_LIMIT_PER_HOUR: '100000',
    MAIL_ADDRESS_LIMIT_PER_HOUR: '1000',
  };
  // Demo data plus one store and member (see seed-store.ts), written before the server opens the database.
  const seed = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'e2e/seed-store.ts')], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (seed.status !== 0) throw new Error('e2e seed failed');
  const server: ChildProcess = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'apps/server/src/main.ts')],
    { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${E2E_PORT}/api/health/`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
  return async () => {
    server.kill('SIGTERM');
    await shopee.close();
    await ecpay.close();
    await tcat.close();
    await tappay.close();
    await newebpay.close();
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
