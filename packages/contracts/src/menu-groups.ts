/**
 * The menu groups of spec §2.8: what a seller role opens (permissions.ts, which re-exports these, has the roles and
 * their zod schemas). Apart from zod (and from constants.ts, which the login page loads) so the web app's main frame
 * checks a user's grants without loading zod.
 */
export const MENU_GROUPS = [
  'basics',
  'products',
  'inbound',
  'returns',
  'orders',
  'stock',
  'analysis',
  'api',
  'store',
  'billing',
  'users',
] as const;
export type TMenuGroup = (typeof MENU_GROUPS)[number];

/**
 * What a route needs: read or write access to one menu group, `self` (any signed-in user: profile, 2FA, help), or
 * `lookup` (read access to any group: the option lists a permitted screen needs — warehouses, carriers, platforms,
 * packaging — so that a user with order rights alone still fills the new-order form's drop-downs).
 */
export type TPermission = `${TMenuGroup}:read` | `${TMenuGroup}:write` | 'self' | 'lookup';

/** True when `grants` allow `perm`. */
export function allows(
  grants: { read: readonly TMenuGroup[]; write: readonly TMenuGroup[] },
  perm: TPermission,
): boolean {
  if (perm === 'self') return true;
  if (perm === 'lookup') return grants.read.length > 0;
  const [group, level] = perm.split(':') as [TMenuGroup, 'read' | 'write'];
  return level === 'read' ? grants.read.includes(group) : grants.write.includes(group);
}
