import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

export interface TWebFigure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function ensureBuilt(root: string): string {
  const dist = path.join(root, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    const r = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('web build failed');
  }
  return dist;
}

/** One JS file a page loaded: its built name (assets/ prefix dropped) and gzip (level 9) size in bytes. */
export interface TJsFile {
  file: string;
  gzip: number;
}

/** gzip size of every JS file a page loads, measured from the built files the browser requested. */
async function jsOfPage(
  baseUrl: string,
  dist: string,
  steps: (page: import('@playwright/test').Page) => Promise<void>,
): Promise<{ gzip: number; files: TJsFile[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    const seen = new Set<string>();
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.origin === new URL(baseUrl).origin && u.pathname.endsWith('.js')) seen.add(u.pathname);
    });
    await steps(page);
    const files: TJsFile[] = [];
    for (const p of seen) {
      const file = path.join(dist, decodeURIComponent(p));
      if (existsSync(file))
        files.push({ file: p.replace(/^\/assets\//, ''), gzip: gzipSync(readFileSync(file), { level: 9 }).length });
    }
    files.sort((a, b) => b.gzip - a.gzip);
    return { gzip: files.reduce((t, f) => t + f.gzip, 0), files };
  } finally {
    await browser.close();
  }
}

const kB = (bytes: number): number => Math.round(bytes / 102.4) / 10;

/** The page's total and, after it, its ten largest chunks (file name and gzip kB), largest first. */
function jsFigures(label: string, js: { gzip: number; files: TJsFile[] }): TWebFigure[] {
  return [
    { name: `JS loaded by ${label} (gzip)`, value: kB(js.gzip), unit: 'kB', note: `${js.files.length} files` },
    ...js.files.slice(0, 10).map((f, i) => ({
      name: `  ${label} chunk ${i + 1}: ${f.file}`,
      value: kB(f.gzip),
      unit: 'kB',
      note: 'gzip',
    })),
  ];
}

async function logIn(
  page: import('@playwright/test').Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[id$="email"]').fill(email);
  await page.locator('input[id$="password"]').fill(password);
  await page.locator('input[id$="password"]').press('Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
}

const DELIVER_RUNS = 3;

interface TDomLike {
  document: { querySelector(selector: string): unknown };
}

/**
 * From `goto('/deliver')` until the first order row is in the page. Checked at every animation frame: a locator's
 * wait polls at growing intervals (up to 500 ms apart), which added up to a few hundred milliseconds to the figure.
 */
async function deliverFirstPage(
  browser: import('@playwright/test').Browser,
  server: { url: string; email: string; password: string },
): Promise<number> {
  const page = await browser.newPage();
  try {
    await logIn(page, server.url, server.email, server.password);
    const t0 = Date.now();
    await page.goto(`${server.url}/deliver`);
    // A function, not a string (the app's CSP allows no eval); this package is compiled without the DOM's types.
    await page.waitForFunction(
      (selector) => (globalThis as unknown as TDomLike).document.querySelector(selector) !== null,
      '.ant-table-tbody tr.ant-table-row',
      { polling: 'raf', timeout: 60_000 },
    );
    return Date.now() - t0;
  } finally {
    await page.close();
  }
}

/**
 * Web figures: gzip size of the JS the login page and the dashboard load, and the time until /deliver shows the
 * first page of a seller's orders. Needs a running server with a seller (url, email, password).
 */
export async function webFigures(
  root: string,
  server: { url: string; email: string; password: string; orders: number } | null,
): Promise<TWebFigure[]> {
  const dist = ensureBuilt(root);
  const out: TWebFigure[] = [];
  if (!server) return out;
  const loginJs = await jsOfPage(server.url, dist, async (page) => {
    await page.goto(`${server.url}/login`);
    await page.waitForLoadState('networkidle');
  });
  out.push(...jsFigures('/login', loginJs));
  const dashJs = await jsOfPage(server.url, dist, async (page) => {
    await logIn(page, server.url, server.email, server.password);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForLoadState('networkidle');
  });
  out.push(...jsFigures('login → /dashboard', dashJs));

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    // Median of three, each in a fresh context (logged in first, as a user opening /deliver from another screen).
    const runs: number[] = [];
    for (let i = 0; i < DELIVER_RUNS; i++) runs.push(await deliverFirstPage(browser, server));
    const sorted = [...runs].sort((a, b) => a - b);
    out.push({
      name: `/deliver first page with ${server.orders.toLocaleString('en')} orders (headless Chromium)`,
      value: sorted[Math.floor(sorted.length / 2)]!,
      unit: 'ms',
      note: `median of ${runs.join(', ')} ms`,
    });
  } catch (err) {
    out.push({
      name: '/deliver first page',
      value: -1,
      unit: 'ms',
      note: `not measured: ${(err as Error).message.split('\n')[0]}`,
    });
  } finally {
    await browser.close();
  }
  return out;
}
