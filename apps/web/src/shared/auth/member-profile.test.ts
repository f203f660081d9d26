import { ZMemberProfile } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { isMemberProfile } from './member-profile';

const store = {
  id: '0cf10902-e621-44d3-af91-6d69fbdcaf8c',
  name: 'Shop',
  short_url: 'shop',
  description: '',
  logo: '',
  is_open: true,
};
const profile = {
  id: '1ac6cae3-383c-4d92-8524-5416aca33f13',
  name: 'Member',
  email: 'm@example.com',
  phone: '',
  postcode: '100',
  address: 'Taipei',
  store,
};

describe('isMemberProfile', () => {
  const samples: unknown[] = [
    profile,
    { ...profile, extra: 1 },
    { ...profile, id: 'not-a-uuid' },
    { ...profile, id: '00000000-0000-0000-0000-000000000000' },
    { ...profile, id: '1ac6cae3-383c-9d92-8524-5416aca33f13' },
    { ...profile, name: undefined },
    { ...profile, phone: 7 },
    { ...profile, store: null },
    { ...profile, store: { ...store, is_open: 'yes' } },
    { ...profile, store: { ...store, id: 'x' } },
    { ...profile, store: { ...store, logo: undefined } },
    null,
    'profile',
    [],
    {},
  ];
  it('agrees with ZMemberProfile on valid and invalid profiles', () => {
    for (const s of samples) expect(isMemberProfile(s), JSON.stringify(s)).toBe(ZMemberProfile.safeParse(s).success);
    expect(isMemberProfile(profile)).toBe(true);
  });
});
