import { z } from 'zod';
import { ZOk } from './common';
import { LABEL_FORMATS, ROLES, THEMES } from './constants';
import { LANGUAGES } from './errors';
import { ZGrants, ZSellerRole } from './permissions';
import { defineRoutes } from './routes';

export { LABEL_FORMATS, ROLES, THEMES, type TLabelFormat } from './constants';
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;
export const ZLanguage = z.enum(LANGUAGES);
export const ZTheme = z.enum(THEMES);
export const ZLabelFormat = z.enum(LABEL_FORMATS);

/** Password rule of spec §5: length greater than 6. */
export const PASSWORD_MIN_LENGTH = 7;
export const ZPassword = z.string().min(PASSWORD_MIN_LENGTH).max(128);
export const ZOtp = z.string().regex(/^\d{6}$/);
export const ZEmail = z.email().max(254);

export const ZLoginRequest = z.object({ email: ZEmail, password: z.string().min(1).max(128) });
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZTokenPair = z.object({ access: z.string(), refresh: z.string() });
/** Wrong passwords given for the account (from any address) since its previous sign-in: shown once, after this one. */
export const ZFailedLogins = z.object({ count: z.number().int().min(1), last_at: z.string() });
export type TFailedLogins = z.infer<typeof ZFailedLogins>;
export const ZLoginSuccess = ZTokenPair.extend({
  status: z.literal('login'),
  role: ZRole,
  failed_logins: ZFailedLogins.optional(),
});
export const ZLoginOtp = z.object({ status: z.literal('otp'), user_id: z.uuid() });
export const ZLoginResponse = z.discriminatedUnion('status', [ZLoginSuccess, ZLoginOtp]);
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZVerifyOtpRequest = z.object({ user_id: z.uuid(), otp: ZOtp });
export const ZRefreshRequest = z.object({ refresh: z.string().min(1).max(2048) });
export const ZRefreshResponse = z.object({ access: z.string(), refresh: z.string() });

export const ZCompanySummary = z.object({ id: z.uuid(), name: z.string() });

export const ZProfile = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: ZRole,
  language: ZLanguage,
  theme: ZTheme,
  /** The label format the print screens start with (A4 sheet or thermal roll). */
  label_format: ZLabelFormat,
  two_factor_enabled: z.boolean(),
  /** The company's admin asks this user to turn two-step login on (/two-factor until they do). */
  two_factor_required: z.boolean(),
  /** The password was generated and mailed (registration, a CRM reset): the web opens /change-password until it is changed. */
  password_change_required: z.boolean(),
  /** The role inside the seller's company; null for provider employees. */
  seller_role: ZSellerRole.nullable(),
  /** What the user may open: the web shows only these menus and screens (the server enforces the same). */
  grants: ZGrants,
  company: ZCompanySummary.nullable(),
  created_at: z.string(),
});
export type TProfile = z.infer<typeof ZProfile>;

export const ZUpdateProfile = z
  .object({
    name: z.string().trim().min(1).max(100),
    language: ZLanguage,
    theme: ZTheme,
    label_format: ZLabelFormat,
  })
  .partial();
export type TUpdateProfile = z.infer<typeof ZUpdateProfile>;

export const ZChangePassword = z.object({ old_password: z.string().min(1).max(128), new_password: ZPassword });

export const ZRegisterRequest = z.object({
  company_name: z.string().trim().min(1).max(100),
  name: z.string().trim().min(1).max(100),
  email: ZEmail,
  phone: z.string().trim().max(30).optional(),
  language: ZLanguage.optional(),
});
export const ZForgotPasswordRequest = z.object({ email: ZEmail, language: ZLanguage.optional() });
export const ZResetPasswordRequest = z.object({ token: z.string().min(10).max(200), new_password: ZPassword });

export const ZTwoFactorSetup = z.object({ secret: z.string(), otpauth_uri: z.string(), qr_data_url: z.string() });
export const ZTwoFactorEnable = z.object({ otp: ZOtp });
export const ZTwoFactorDisable = z.object({ password: z.string().min(1).max(128), otp: ZOtp });
export const ZTwoFactorStatus = z.object({ two_factor_enabled: z.boolean() });

export const ZStoreSummary = z.object({
  id: z.uuid(),
  name: z.string(),
  short_url: z.string(),
  description: z.string(),
  logo: z.string(),
  is_open: z.boolean(),
});
export const ZMemberProfile = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  postcode: z.string(),
  address: z.string(),
  store: ZStoreSummary,
});
export type TMemberProfile = z.infer<typeof ZMemberProfile>;
export const ZMemberLoginRequest = z.object({
  corp: z.string().trim().min(1).max(100),
  email: ZEmail,
  password: z.string().min(1).max(128),
});
export const ZMemberLoginResponse = ZTokenPair.extend({ profile: ZMemberProfile });

export const ZHealth = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
  build_id: z.string(),
});
/** Liveness: the process runs and answers (no database call: a slow database must not get the process restarted). */
export const ZLive = z.object({ status: z.literal('live'), version: z.string() });
/** Readiness: the database answers; 503 DATABASE_UNAVAILABLE when it does not, 503 while the process shuts down. */
export const ZReady = z.object({ status: z.literal('ready'), database: z.enum(['pglite', 'postgres']) });
export const ZBuildInfo = z.object({ build_id: z.string(), version: z.string() });

export const authRoutes = defineRoutes({
  login: { method: 'POST', path: '/api/login/', auth: 'public', body: ZLoginRequest, response: ZLoginResponse },
  verifyOtp: {
    method: 'POST',
    path: '/api/verify-otp/',
    auth: 'public',
    body: ZVerifyOtpRequest,
    response: ZLoginSuccess,
  },
  refresh: {
    method: 'POST',
    path: '/api/token/refresh/',
    auth: 'public',
    body: ZRefreshRequest,
    response: ZRefreshResponse,
  },
  logout: { method: 'POST', path: '/api/logout/', auth: 'public', body: ZRefreshRequest, response: ZOk },
  profile: { method: 'GET', path: '/api/profile/', auth: 'customer', perm: 'self', response: ZProfile },
  employeeProfile: { method: 'GET', path: '/api/employee-profile/', auth: 'employee', response: ZProfile },
  updateProfile: {
    method: 'PATCH',
    path: '/api/account/profile/',
    auth: 'user',
    perm: 'self',
    body: ZUpdateProfile,
    response: ZProfile,
  },
  changePassword: {
    method: 'POST',
    path: '/api/account/change-password/',
    auth: 'user',
    perm: 'self',
    body: ZChangePassword,
    response: ZOk,
  },
  register: { method: 'POST', path: '/api/register/', auth: 'public', body: ZRegisterRequest, response: ZOk },
  forgotPassword: {
    method: 'POST',
    path: '/api/format-password/',
    auth: 'public',
    body: ZForgotPasswordRequest,
    response: ZOk,
  },
  resetPassword: {
    method: 'POST',
    path: '/api/reset-password/',
    auth: 'public',
    body: ZResetPasswordRequest,
    response: ZOk,
  },
  twoFactorSetup: {
    method: 'POST',
    path: '/api/two-factor/setup/',
    auth: 'user',
    perm: 'self',
    response: ZTwoFactorSetup,
  },
  twoFactorEnable: {
    method: 'POST',
    path: '/api/two-factor/enable/',
    auth: 'user',
    perm: 'self',
    body: ZTwoFactorEnable,
    response: ZTwoFactorStatus,
  },
  twoFactorDisable: {
    method: 'POST',
    path: '/api/two-factor/disable/',
    auth: 'user',
    perm: 'self',
    body: ZTwoFactorDisable,
    response: ZTwoFactorStatus,
  },
  memberLogin: {
    method: 'POST',
    path: '/api/member-login/',
    auth: 'public',
    body: ZMemberLoginRequest,
    response: ZMemberLoginResponse,
  },
  memberRefresh: {
    method: 'POST',
    path: '/api/member-token/refresh/',
    auth: 'public',
    body: ZRefreshRequest,
    response: ZRefreshResponse,
  },
  memberProfile: { method: 'GET', path: '/api/member-profile/', auth: 'member', response: ZMemberProfile },
  health: { method: 'GET', path: '/api/health/', auth: 'public', response: ZHealth },
  healthLive: { method: 'GET', path: '/api/health/live', auth: 'public', response: ZLive },
  healthReady: { method: 'GET', path: '/api/health/ready', auth: 'public', response: ZReady },
  build: { method: 'GET', path: '/api/build/', auth: 'public', response: ZBuildInfo },
});
