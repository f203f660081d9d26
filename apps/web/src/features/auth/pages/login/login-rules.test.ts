import { ZEmail, ZLoginRequest, ZOtp } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { regexes } from 'zod/v4/core';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { EMAIL_PATTERN, loginRules } from './login-rules';

type TValidator = (rule: unknown, value: unknown) => Promise<void>;
/** The rule's outcome: 'ok' or the message it fails with. */
const outcome = (rule: unknown, value: unknown) =>
  (rule as { validator: TValidator }).validator({}, value).then(
    () => 'ok',
    (err: Error) => err.message,
  );

const long = (n: number) => 'x'.repeat(n);
const SAMPLES = {
  email: [
    undefined,
    '',
    '   ',
    'a@b.co',
    'demo@wms.local',
    'first.last+tag@example.co.jp',
    ' a@b.co',
    'nope',
    'a@b',
    'a@b.c',
    '.a@b.co',
    'a..b@c.co',
    'a@-b.co',
    "o'hara@example.com",
    `${long(240)}@example.com`,
    `${long(250)}@example.com`,
    'ａ@b.co',
  ],
  password: [undefined, '', '  ', 'x', ' pass word ', long(128), long(129), 'デモ-pass-123'],
  otp: [undefined, '', '123456', '12345', '1234567', 'abcdef', ' 123456', '１２３４５６'],
};

describe('the login rules written out', () => {
  it('use the pattern z.email() checks with', () => {
    expect(EMAIL_PATTERN.flags).toBe(regexes.email.flags);
    for (const value of SAMPLES.email.filter((v) => v !== undefined))
      expect([value, EMAIL_PATTERN.test(value)]).toEqual([value, regexes.email.test(value)]);
  });

  it.each([
    ['email', ZEmail],
    ['password', ZLoginRequest.shape.password],
    ['otp', ZOtp],
  ] as const)('%s answers as the zod rule of its contract schema does', async (field, schema) => {
    for (const value of SAMPLES[field]) {
      expect([value, await outcome(loginRules[field], value)]).toEqual([
        value,
        await outcome(zodRule(field, schema), value),
      ]);
    }
  });
});
