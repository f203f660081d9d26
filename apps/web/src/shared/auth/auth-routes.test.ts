import { authRoutes, type TRouteContract } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { bootRoutes } from './auth-routes';

describe('bootRoutes', () => {
  it('match the contracts route for route (method, path, auth, permission)', () => {
    for (const [name, route] of Object.entries(bootRoutes)) {
      const contract: TRouteContract = authRoutes[name as keyof typeof authRoutes];
      expect({ name, ...route }).toEqual({
        name,
        method: contract.method,
        path: contract.path,
        auth: contract.auth,
        ...(contract.perm ? { perm: contract.perm } : {}),
      });
    }
  });
});
