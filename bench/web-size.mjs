// `node bench/web-size.mjs [--build] [--json]`: gzip size of the JavaScript the login page loads.
// Serves apps/web/dist from a tiny static server (no database needed), opens /login in Debian's Chromium and
// adds up the gzip (level 9) size of every same-origin .js file the page requested until the network is idle.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const args = new Set(process.argv.slice(2));

if (args.has('--build') || !existsSync(path.join(dist, 'index.html'))) {
  const r = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
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
if (args.has('--json')) {
  console.log(JSON.stringify({ files: rows, total }, null, 2));
} else {
  console.log('JS loaded by /login');
  for (const r of rows) console.log(`  ${r.file.padEnd(48)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip`);
  console.log(`login page JS: ${rows.length} files, ${kb(total.raw)} raw, ${kb(total.gzip)} gzip`);
}
