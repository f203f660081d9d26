import { analysisRoutes, authRoutes, billingRoutes, supportRoutes, type TRouteContract } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { overviewRoutes } from '../../features/billing/overview-api';
import { dashboardRoutes } from '../../features/dashboard/api';
import { noticeRoutes } from '../../features/support/notices-api';
import { bootRoutes } from '../auth/auth-routes';

/** Every table of route heads beside the contracts' table its names come from. */
const TABLES: Array<[string, Record<string, TRouteContract>, Record<string, TRouteContract>]> = [
  ['bootRoutes', bootRoutes, authRoutes],
  ['dashboardRoutes', dashboardRoutes, analysisRoutes],
  ['overviewRoutes', overviewRoutes, billingRoutes],
  ['noticeRoutes', noticeRoutes, supportRoutes],
];

describe('route heads', () => {
  it.each(TABLES)('%s match the contracts route for route (method, path, auth, permission)', (_, heads, table) => {
    for (const [name, route] of Object.entries(heads)) {
      const contract = table[name];
      expect(contract, name).toBeDefined();
      expect({ name, ...route }).toEqual({
        name,
        method: contract!.method,
        path: contract!.path,
        auth: contract!.auth,
        ...(contract!.perm ? { perm: contract!.perm } : {}),
      });
    }
  });
});
