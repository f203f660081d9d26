// `node bench/web-size.mjs [--build] [--modules] [--all] [--json] [--dashboard]`: gzip size of the JavaScript the
// login page loads. Serves apps/web/dist from a tiny static server (no database needed), opens /login in Debian's
// Chromium and adds up the gzip (level 9) size of every same-origin .js file the page requested until the network is
// idle, then prints the ten largest chunks (--all: every file). --modules builds with the bundle analyser
// (apps/web/bundle-stats.ts) and shows under each of the ten what it holds: packages (antd by component) and source
// files with their share of the chunk's gzip size (in proportion to the minified bytes they produced).
// --dashboard also measures login → /dashboard as bench/src/web.ts does, against the real server on a fresh embedded
// database (PGlite) seeded with the demo seller (takes a minute: migrations and seed at start-up).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const args = new Set(process.argv.slice(2));

const statsFile = path.join(root, 'apps/web/.tmp/bundle-stats.json');
if (args.has('--build') || args.has('--modules') || !existsSync(path.join(dist, 'index.html'))) {
  rmSync(statsFile, { force: true });
  const env = args.has('--modules') ? { ...process.env, WEB_BUNDLE_STATS: statsFile } : process.env;
  // With --json the build's log goes to stderr: stdout carries the JSON alone.
  const stdio = args.has('--json') ? ['ignore', 2, 2] : 'inherit';
  const r = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], { cwd: root, stdio, env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.json': 'application/json' };
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.startsWith('/api/')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  const rel = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  let file = path.join(dist, rel);
  if (rel.includes('..') || !rel || !existsSync(file)) file = path.join(dist, 'index.html');
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
/** Paths of the same-origin .js files a page requested while `steps` ran. */
async function jsRequested(origin, steps) {
  const files = new Set();
  const page = await browser.newPage();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === origin && u.pathname.endsWith('.js')) files.add(u.pathname);
  });
  await steps(page);
  await page.close();
  return files;
}

const DEMO = { email: 'demo@wms.local', password: 'demo-pass-123' };
/** The app server on a fresh PGlite database with the demo seller; resolves once /api/health answers. */
async function startApp() {
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const p = probe.address().port;
      probe.close(() => resolve(p));
    });
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wms-web-size-'));
  const proc = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      DEMO_CUSTOMER_EMAIL: DEMO.email,
      DEMO_CUSTOMER_PASSWORD: DEMO.password,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 900; i++) {
    if (proc.exitCode !== null) throw new Error('the server exited');
    try {
      if ((await fetch(`${url}/api/health/`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise((resolve) => {
      proc.once('exit', () => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      });
      proc.kill('SIGTERM');
    });
  return { url, stop };
}

const measured = [];
try {
  const login = await jsRequested(base, async (page) => {
    await page.goto(`${base}/login`);
    await page.locator('#email').waitFor();
    await page.waitForLoadState('networkidle');
  });
  measured.push({ label: '/login', files: login });
  if (args.has('--dashboard')) {
    const app = await startApp();
    try {
      const dash = await jsRequested(app.url, async (page) => {
        await page.goto(`${app.url}/login`);
        await page.locator('input[id$="email"]').fill(DEMO.email);
        await page.locator('input[id$="password"]').fill(DEMO.password);
        await page.locator('input[id$="password"]').press('Enter');
        await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
        await page.goto(`${app.url}/dashboard`);
        await page.waitForLoadState('networkidle');
      });
      measured.push({ label: 'login → /dashboard', files: dash });
    } finally {
      await app.stop();
    }
  }
} finally {
  await browser.close();
  server.close();
}

/** Each file's raw and gzip (level 9) size, largest first, and the page's total. */
function sized(files) {
  const rows = [...files].map((p) => {
    const bytes = readFileSync(path.join(dist, decodeURIComponent(p)));
    return { file: p.replace(/^\/assets\//, ''), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip }), { raw: 0, gzip: 0 });
  return { rows, total };
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
/** 'node_modules/antd/es/form/Form.js' → 'antd/form'; 'node_modules/@rc-component/form/…' → '@rc-component/form'. */
function owner(source) {
  if (!source.startsWith('node_modules/')) return source.replace(/^apps\/web\/src\//, 'src/');
  const parts = source.slice('node_modules/'.length).split('/');
  const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  return name === 'antd' && parts[1] === 'es' ? `antd/${parts[2].replace(/\.js$/, '')}` : name;
}
const stats = args.has('--modules') && existsSync(statsFile) ? JSON.parse(readFileSync(statsFile, 'utf8')) : null;

const pages = measured.map((m) => ({ label: m.label, ...sized(m.files) }));
if (args.has('--json')) {
  // One page: { files, total } as before; with --dashboard: { '/login': …, 'login → /dashboard': … }.
  const out = pages.map((p) => [p.label, { files: p.rows, total: p.total }]);
  console.log(JSON.stringify(out.length === 1 ? out[0][1] : Object.fromEntries(out), null, 2));
} else {
  for (const { label, rows, total } of pages) {
    const shown = args.has('--all') ? rows : rows.slice(0, 10);
    console.log(
      args.has('--all') ? `JS loaded by ${label}` : `JS loaded by ${label}: the ${shown.length} largest chunks`,
    );
    for (const r of shown) {
      console.log(`  ${r.file.padEnd(48)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip`);
      const chunk = stats?.[`assets/${r.file}`];
      if (!chunk) continue;
      const by = {};
      for (const [source, bytes] of Object.entries(chunk.sources)) by[owner(source)] = (by[owner(source)] ?? 0) + bytes;
      const all = Object.values(by).reduce((t, b) => t + b, 0) || 1;
      const top = Object.entries(by)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8);
      for (const [name, bytes] of top)
        console.log(`      ${name.padEnd(52)} ≈ ${kb((r.gzip * bytes) / all).padStart(8)}`);
    }
    console.log(`${label} JS: ${rows.length} files, ${kb(total.raw)} raw, ${kb(total.gzip)} gzip`);
  }
}
