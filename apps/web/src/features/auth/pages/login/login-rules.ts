import { plainRule } from '../../../../shared/forms/plain-rule';

/** The address pattern of the contracts' ZEmail (zod's `z.email()`: its "practical" pattern), at most 254 characters. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The login page's field rules, the checks of the contracts' ZEmail, ZLoginRequest's password and ZOtp written out
 * (plain-rule.ts): logging in loads neither zod nor the schemas. login-rules.test.ts holds them to those schemas.
 * Loaded when a field first validates (lazyRule).
 */
export const loginRules = {
  email: plainRule('email', (v) => (v.length <= 254 && EMAIL_PATTERN.test(v) ? null : 'INVALID_FIELD')),
  password: plainRule('password', (v) => (v.length <= 128 ? null : 'INVALID_FIELD')),
  otp: plainRule('otp', (v) => (/^\d{6}$/.test(v) ? null : 'INVALID_FIELD')),
};
