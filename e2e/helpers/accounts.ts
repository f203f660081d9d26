/** Logins the e2e server is seeded with (global-setup.ts, seed-store.ts). */
export const DEMO = {
  customer: { email: 'demo@wms.local', password: 'demo-pass-123', name: 'Demo seller' },
  employee: { email: 'staff@wms.local', password: 'staff-pass-123' },
  store: { name: '示範商店 Demo Shop', shortUrl: 'demo-shop' },
  member: { email: 'member@wms.local', password: 'member-pass-123', name: 'Store member' },
};
/** The port of this run's server (playwright.config.ts picks it). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
