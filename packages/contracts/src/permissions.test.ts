import { describe, expect, it } from 'vitest';
import * as contracts from './index';
import { allows, CUSTOM_GRANTS, grantsOf, MENU_GROUPS, SELLER_ROLES, type TPermission } from './permissions';
import type { TRouteContract } from './routes';

/** Every route of every route table the package exports (a new table is covered without being listed here). */
function allRoutes(): Array<TRouteContract & { name: string }> {
  const out: Array<TRouteContract & { name: string }> = [];
  for (const [table, value] of Object.entries(contracts)) {
    if (!table.endsWith('Routes') || !value || typeof value !== 'object') continue;
    for (const [name, r] of Object.entries(value as Record<string, TRouteContract>)) {
      if (r && typeof r === 'object' && typeof r.path === 'string') out.push({ ...r, name: `${table}.${name}` });
    }
  }
  return out;
}

const VALID = new Set<string>(['self', 'lookup', ...MENU_GROUPS.flatMap((g) => [`${g}:read`, `${g}:write`])]);

describe('route permissions', () => {
  it('every route of a seller user declares a valid permission in the route table', () => {
    const routes = allRoutes();
    expect(routes.length).toBeGreaterThan(200);
    const missing = routes
      .filter((r) => (r.auth === 'customer' || r.auth === 'user') && !VALID.has(String(r.perm)))
      .map((r) => `${r.name} ${r.method} ${r.path} perm=${String(r.perm)}`);
    expect(missing, 'declare `perm` next to `auth` (packages/contracts/src/permissions.ts)').toEqual([]);
    // The other kinds of caller have their own guard: a permission there would be a mistake.
    const stray = routes.filter((r) => r.auth !== 'customer' && r.auth !== 'user' && r.perm !== undefined);
    expect(stray.map((r) => r.name)).toEqual([]);
  });

  it('a GET route needs read access only (the read-only role can open every screen it lists)', () => {
    const writes = allRoutes()
      .filter((r) => r.method === 'GET' && typeof r.perm === 'string' && r.perm.endsWith(':write'))
      .map((r) => r.name);
    expect(writes).toEqual([]);
  });

  it('user administration and billing are for the owner only among the fixed roles', () => {
    for (const perm of ['users:read', 'users:write', 'billing:read', 'billing:write'] as TPermission[]) {
      expect(allows(grantsOf('owner'), perm)).toBe(true);
      for (const role of ['office', 'warehouse', 'readonly'] as const) expect(allows(grantsOf(role), perm)).toBe(false);
    }
  });

  it('warehouse works inbound, stock, orders and returns, reads products, and sees no prices', () => {
    const w = grantsOf('warehouse');
    for (const g of ['inbound', 'stock', 'orders', 'returns'] as const) expect(allows(w, `${g}:write`)).toBe(true);
    expect(allows(w, 'products:read')).toBe(true);
    expect(allows(w, 'products:write')).toBe(false);
    expect(allows(w, 'analysis:read')).toBe(false);
    expect(allows(w, 'store:read')).toBe(false);
    expect(w.prices).toBe(false);
  });

  it('read-only reads what office reads and writes nothing', () => {
    const ro = grantsOf('readonly');
    for (const g of MENU_GROUPS) {
      expect(allows(ro, `${g}:write`)).toBe(false);
      expect(allows(ro, `${g}:read`)).toBe(allows(grantsOf('office'), `${g}:read`));
    }
  });

  it('a custom role opens exactly the ticked groups, never user administration', () => {
    const c = grantsOf('custom', ['orders', 'billing', 'users', 'prices']);
    expect(c.read).toEqual(['orders', 'billing']);
    expect(c.prices).toBe(true);
    expect(CUSTOM_GRANTS).not.toContain('users');
    expect(grantsOf('custom', []).read).toEqual([]);
    expect(SELLER_ROLES).toContain('custom');
    expect(allows(grantsOf('custom', []), 'self')).toBe(true);
  });

  it('`lookup` (the option lists) opens for any user who reads some group, not for one who reads none', () => {
    expect(allows(grantsOf('custom', ['orders']), 'lookup')).toBe(true);
    expect(allows(grantsOf('custom', ['orders']), 'basics:read')).toBe(false);
    expect(allows(grantsOf('custom', []), 'lookup')).toBe(false);
    const lookups = allRoutes()
      .filter((r) => r.perm === 'lookup')
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    // Read-only option lists only: a write or another seller's data never hides behind `lookup`.
    expect(lookups).toEqual([
      'GET /api/ecommerce-platforms/',
      'GET /api/logistics-providers/',
      'GET /api/packaging-materials/',
      'GET /api/warehouses/',
    ]);
  });
});
