import type { TMemberProfile } from '@wms/contracts';

// zod's z.uuid() pattern (RFC 9562 variants, nil and max).
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const strings = (o: Record<string, unknown>, keys: string[]) => keys.every((k) => typeof o[k] === 'string');
const isUuid = (v: unknown) => typeof v === 'string' && UUID.test(v);

/**
 * Whether a stored member profile has the contract's shape (ZMemberProfile), checked by hand: the session is part of
 * what /login loads, and the schema would bring zod with it. member-profile.test.ts holds it to ZMemberProfile.
 */
export function isMemberProfile(v: unknown): v is TMemberProfile {
  if (!isObject(v) || !isUuid(v.id) || !strings(v, ['name', 'email', 'phone', 'postcode', 'address'])) return false;
  const store = v.store;
  return (
    isObject(store) &&
    isUuid(store.id) &&
    strings(store, ['name', 'short_url', 'description', 'logo']) &&
    typeof store.is_open === 'boolean'
  );
}
