import { ZEmail, ZOtp, ZPassword, ZRegisterRequest } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { passwordRule, zodRule } from './zod-rule';

type TValidator = (rule: unknown, value: unknown) => Promise<void>;
const run = (rule: unknown, value: unknown) => (rule as { validator: TValidator }).validator({}, value);

describe('form rules from the contract schemas', () => {
  it('answers with the catalogue messages of the chosen language', async () => {
    const en = () => 'en' as const;
    await expect(run(zodRule('email', ZEmail, { lang: en }), '')).rejects.toThrow('E-mail is required');
    await expect(run(zodRule('email', ZEmail, { lang: en }), 'nope')).rejects.toThrow('E-mail is not valid');
    await expect(run(zodRule('email', ZEmail, { lang: () => 'zh-TW' }), '  ')).rejects.toThrow('電子郵件為必填');
    await expect(run(zodRule('email', ZEmail, { lang: en }), 'a@b.co')).resolves.toBeUndefined();
    await expect(run(zodRule('otp', ZOtp, { lang: en }), '12345')).rejects.toThrow('Verification code is not valid');
  });

  it('uses "password length must be greater than 6" for short passwords (spec §5)', async () => {
    const rule = { ...passwordRule('new_password', ZPassword) };
    await expect(run(rule, '123456')).rejects.toThrow('密碼長度必須大於 6');
    await expect(run(rule, '1234567')).resolves.toBeUndefined();
  });

  it('lets optional fields stay empty', async () => {
    await expect(run(zodRule('phone', ZRegisterRequest.shape.phone), '')).resolves.toBeUndefined();
  });
});
