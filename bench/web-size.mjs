// `node bench/web-size.mjs [--build] [--modules] [--all] [--json]`: gzip size of the JavaScript the login page loads.
// Serves apps/web/dist from a tiny static server (no database needed), opens /login in Debian's Chromium and
// adds up the gzip (level 9) size of every same-origin .js file the page requested until the network is idle, then
// prints the ten largest chunks (--all: every file). --modules builds with the bundle analyser
// (apps/web/bundle-stats.ts) and shows under each of the ten what it holds: packages (antd by component) and source
// files with their share of the chunk's gzip size (in proportion to the minified bytes they produced).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
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
  const r = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit', env });
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
const files = new Set();
try {
  const page = await browser.newPage();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === base && u.pathname.endsWith('.js')) files.add(u.pathname);
  });
  await page.goto(`${base}/login`);
  await page.locator('#email').waitFor();
  await page.waitForLoadState('networkidle');
} finally {
  await browser.close();
  server.close();
}

const rows = [...files].map((p) => {
  const bytes = readFileSync(path.join(dist, p));
  return { file: p.replace(/^\/assets\//, ''), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
rows.sort((a, b) => b.gzip - a.gzip);
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip }), { raw: 0, gzip: 0 });
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
/** 'node_modules/antd/es/form/Form.js' → 'antd/form'; 'node_modules/@rc-component/form/…' → '@rc-component/form'. */
function owner(source) {
  if (!source.startsWith('node_modules/')) return source.replace(/^apps\/web\/src\//, 'src/');
  const parts = source.slice('node_modules/'.length).split('/');
  const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  return name === 'antd' && parts[1] === 'es' ? `antd/${parts[2].replace(/\.js$/, '')}` : name;
}
const stats = args.has('--modules') && existsSync(statsFile) ? JSON.parse(readFileSync(statsFile, 'utf8')) : null;

if (args.has('--json')) {
  console.log(JSON.stringify({ files: rows, total }, null, 2));
} else {
  const shown = args.has('--all') ? rows : rows.slice(0, 10);
  console.log(args.has('--all') ? 'JS loaded by /login' : `JS loaded by /login: the ${shown.length} largest chunks`);
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
  console.log(`login page JS: ${rows.length} files, ${kb(total.raw)} raw, ${kb(total.gzip)} gzip`);
}
