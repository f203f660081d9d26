import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { invalidInput } from '@wms/contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
const dist = mkdtempSync(path.join(tmpdir(), 'wms-dist-'));
beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'build.json'), JSON.stringify({ build_id: 'build-A' }));
  ctx = await createTestContext({ WEB_DIST: dist });
});
afterAll(() => ctx?.close());

describe('system', () => {
  it('reports health with the engine and the build id, and notices a new build', async () => {
    const health = await ctx.api.authRoutes.health();
    expect(health.json()).toMatchObject({ status: 'ok', database: TEST_ENGINE, build_id: 'build-A' });
    writeFileSync(path.join(dist, 'build.json'), JSON.stringify({ build_id: 'build-B' }));
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(dist, 'build.json'), later, later);
    const build = await ctx.api.authRoutes.build();
    expect(build.json().build_id).toBe('build-B');
    expect(build.headers['cache-control']).toBe('no-store');
  });

  it('serves the single-page app for screens, assets as files, and JSON 404 for unknown API paths', async () => {
    const screen = await ctx.inject({ method: 'GET', url: '/deliver-print-doc/1/order' });
    expect(screen.statusCode).toBe(200);
    expect(screen.body).toContain('<div id="root">');
    const asset = await ctx.inject({ method: 'GET', url: '/assets/app-1.js' });
    expect(asset.body).toBe('console.log(1)');
    // Hashed build files are cached for good, those there at start-up and those a rebuild added since alike.
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    writeFileSync(path.join(dist, 'assets', 'app-2.js'), 'console.log(2)');
    const added = await ctx.inject({ method: 'GET', url: '/assets/app-2.js' });
    expect(added.body).toBe('console.log(2)');
    expect(added.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Any other file of the build (its id, icons) is asked again each time.
    expect((await ctx.inject({ method: 'GET', url: '/build.json' })).headers['cache-control']).toBe('no-cache');
    expect((await ctx.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await ctx.inject({ method: 'GET', url: '/assets/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    // raw-api-path: an unknown API path (no contract route) is answered by the router's own 404.
    const api = await ctx.inject({ method: 'GET', url: '/api/nothing-here/', lang: 'en' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'No information found' });
  });

  it('sends the security headers (CSP, no framing, nosniff) on screens, assets, API answers and errors', async () => {
    const answers = await Promise.all([
      ...['/deliver-print-doc/1/order', '/assets/app-1.js'].map((url) => ctx.inject({ method: 'GET', url })),
      ctx.api.authRoutes.health(),
      // raw-api-path: an unknown API path (no contract route), the router's own 404.
      ctx.inject({ method: 'GET', url: '/api/nothing-here/' }),
      ctx.api.catalogRoutes.listProducts({ query: { page_size: invalidInput('abc') } }),
    ]);
    for (const res of answers) {
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ])
        expect(csp).toContain(directive);
      // Plain HTTP (PUBLIC_URL http://…): nothing is upgraded and no HSTS is promised.
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
    }
    // The screen keeps its own caching rule; API answers stay no-store.
    expect(answers[0]!.headers['cache-control']).toBe('no-cache');
    expect(answers[2]!.headers['cache-control']).toBe('no-store');
  });

  it('promises HTTPS (HSTS, upgrade-insecure-requests) when the public address is https', async () => {
    const tls = await createTestContext({ PUBLIC_URL: 'https://wms.example.com' });
    try {
      const res = await tls.api.authRoutes.health();
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await tls.close();
    }
  });
});
