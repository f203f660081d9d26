import { grantsOf, type TLanguage, type TProfile, type TSellerRole, type TUpdateProfile } from '@wms/contracts';
import QRCode from 'qrcode';
import type { TConfig } from '../../config';
import type { Db, Executor } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import {
  decryptSecret,
  encryptSecret,
  generatePassword,
  hashPassword,
  randomToken,
  sha256Hex,
  verifyPassword,
} from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { forgetPasswordMails, mailDelivery, queueMail, renderMail } from '../../platform/mail';
import { EMPLOYEE_GRANTS } from '../../platform/permissions';
import type { RateLimits } from '../../platform/rate-limit';
import { generateTotpSecret, otpauthUri, verifyTotp } from '../../platform/totp';
import * as authRepo from '../auth';
import { guardAttempt } from '../auth';
import * as repo from './account.repository';

export interface TAccountDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
  rateLimits: RateLimits;
}

/** Registrations and reset requests of one client address share an hourly budget. */
async function limitSignupClient(deps: TAccountDeps, ip: string): Promise<void> {
  await deps.rateLimits.consume('signup-ip', ip, { points: deps.config.signupIpLimitPerHour, durationSeconds: 3600 });
}

const RESET_TTL_MINUTES = 60;
type TUserActor = Extract<TActor, { kind: 'user' }>;

/** GET /api/profile/ and /api/employee-profile/. */
export async function getProfile(deps: TAccountDeps, actor: TUserActor): Promise<TProfile> {
  const row = await repo.findProfileRow(deps.db, actor.id);
  if (!row?.user.is_active) throw new AppError('NOT_FOUND');
  const u = row.user;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role as TProfile['role'],
    language: u.language as TLanguage,
    theme: u.theme as TProfile['theme'],
    label_format: u.label_format as TProfile['label_format'],
    two_factor_enabled: u.totp_enabled,
    two_factor_required: u.two_factor_required,
    password_change_required: u.must_change_password,
    seller_role: u.role === 'CUSTOMER' ? (u.seller_role as TSellerRole) : null,
    grants: u.role === 'CUSTOMER' ? grantsOf(u.seller_role as TSellerRole, u.menu_access) : EMPLOYEE_GRANTS,
    company: row.company?.id ? { id: row.company.id, name: row.company.name } : null,
    created_at: u.created_at.toISOString(),
  };
}

export async function updateProfile(deps: TAccountDeps, actor: TUserActor, patch: TUpdateProfile): Promise<TProfile> {
  await withTx(deps.db, async (tx) => {
    const before = await repo.findProfileRow(tx, actor.id);
    if (!before) throw new AppError('NOT_FOUND');
    if (Object.keys(patch).length === 0) return;
    await repo.updateUser(tx, actor.id, patch);
    const { name, language, theme, label_format } = before.user;
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'profile',
      entityId: actor.id,
      before: { name, language, theme, label_format },
      after: patch,
    });
  });
  return getProfile(deps, actor);
}

/** Change password; every refresh token of the user is revoked ("Change successful, please log in again"). */
export async function changePassword(
  deps: TAccountDeps,
  actor: TUserActor,
  input: { old_password: string; new_password: string },
) {
  const row = await repo.findProfileRow(deps.db, actor.id);
  if (!row) throw new AppError('NOT_FOUND');
  if (!(await verifyPassword(input.old_password, row.user.password_hash)))
    throw new AppError('WRONG_PASSWORD', { field: 'old_password' });
  const hash = await hashPassword(input.new_password);
  await withTx(deps.db, async (tx) => {
    await repo.updateUser(tx, actor.id, {
      password_hash: hash,
      password_changed_at: new Date(),
      must_change_password: false,
    });
    await authRepo.revokeAllForSubject(tx, 'user', actor.id);
    await writeAudit(tx, actor, { action: 'change_password', entity: 'user', entityId: actor.id });
  });
  // The mailed password is replaced: its copy in the local outbox (no SMTP) goes too.
  if (row.user.must_change_password && !deps.config.smtpUrl) forgetPasswordMails(deps.config.dataDir, row.user.email);
  return { ok: true as const };
}

/** Registration: the seller's company and its first CUSTOMER user; the generated password is e-mailed. */
export async function register(
  deps: TAccountDeps,
  input: { company_name: string; name: string; email: string; phone?: string; language?: TLanguage },
  lang: TLanguage,
  ip: string,
) {
  await limitSignupClient(deps, ip);
  const email = input.email.trim().toLowerCase();
  const language = input.language ?? lang;
  const password = generatePassword();
  const hash = await hashPassword(password);
  try {
    await withTx(deps.db, async (tx) => {
      if (await authRepo.findUserByEmail(tx, email)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
      const customer = await repo.insertCustomer(tx, { name: input.company_name, phone: input.phone ?? null });
      const user = await repo.insertUser(tx, {
        customer_id: customer.id,
        email,
        name: input.name,
        role: 'CUSTOMER',
        password_hash: hash,
        language,
        // The password is mailed: the first sign-in asks for one of the user's own (the web opens /change-password).
        must_change_password: true,
      });
      const actor: TActor = { kind: 'user', id: user.id, role: 'CUSTOMER', customerId: customer.id };
      await writeAudit(tx, actor, {
        action: 'register',
        entity: 'customer',
        entityId: customer.id,
        after: { name: customer.name, email },
      });
      // The mail is queued with the account: SMTP down delays it (retried), it never undoes or fails the sign-up.
      const mail = renderMail('registered', language, {
        name: input.name,
        company: input.company_name,
        email,
        password,
        url: deps.config.publicUrl,
      });
      await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: email, ...mail, carriesPassword: true });
    });
  } catch (err) {
    if (sqlState(err) === '23505') throw new AppError('EMAIL_TAKEN', { field: 'email' });
    throw err;
  }
  deps.jobs.kick(mailDelivery.name);
  return { ok: true as const };
}

/** Forgot password: mails a one-time reset link. The answer is the same whether or not the address exists. */
export async function requestPasswordReset(
  deps: TAccountDeps,
  input: { email: string; language?: TLanguage },
  lang: TLanguage,
  ip: string,
) {
  await limitSignupClient(deps, ip);
  const email = input.email.trim().toLowerCase();
  // Over the address' budget the answer stays the same and no mail goes (known or unknown address alike).
  const withinBudget = await deps.rateLimits
    .consume('mail-address', email, { points: deps.config.mailAddressLimitPerHour, durationSeconds: 3600 })
    .then(() => true)
    .catch(() => false);
  const user = withinBudget ? await authRepo.findUserByEmail(deps.db, email) : undefined;
  if (!user?.is_active) return { ok: true as const };
  const token = randomToken(24);
  const language = (user.language as TLanguage) ?? input.language ?? lang;
  const link = `${deps.config.publicUrl}/format-password?token=${encodeURIComponent(token)}`;
  const mail = renderMail('password_reset', language, { name: user.name, link, minutes: String(RESET_TTL_MINUTES) });
  await withTx(deps.db, async (tx) => {
    await repo.insertPasswordReset(tx, {
      user_id: user.id,
      token_hash: sha256Hex(token),
      expires_at: new Date(Date.now() + RESET_TTL_MINUTES * 60 * 1000),
    });
    await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: user.email, ...mail });
  });
  deps.jobs.kick(mailDelivery.name);
  return { ok: true as const };
}

/**
 * POST /api/reset-password/ with the mailed token. Each try costs a password hash, so the tries of one client address
 * share the per-minute budget of sign-in attempts (AUTH_IP_LIMIT_PER_MINUTE): over it 429 with Retry-After.
 */
export async function resetPassword(deps: TAccountDeps, input: { token: string; new_password: string }, ip: string) {
  await deps.rateLimits.consume('auth-ip', ip, { points: deps.config.authIpLimitPerMinute, durationSeconds: 60 });
  const hash = await hashPassword(input.new_password);
  await withTx(deps.db, async (tx) => {
    const reset = await repo.consumePasswordReset(tx, sha256Hex(input.token));
    if (!reset) throw new AppError('TOKEN_INVALID');
    // An invitation's link is a reset link too: using it ends the invited state.
    await repo.updateUser(tx, reset.user_id, {
      password_hash: hash,
      password_changed_at: new Date(),
      invited_at: null,
      must_change_password: false,
    });
    await authRepo.revokeAllForSubject(tx, 'user', reset.user_id);
    await writeAudit(
      tx,
      { kind: 'system', id: null, customerId: null },
      { action: 'reset_password', entity: 'user', entityId: reset.user_id },
    );
  });
  return { ok: true as const };
}

/** Two-step set-up: a new secret (encrypted at rest), its otpauth URI and a QR code. Enabling needs a valid code. */
export async function setUpTwoFactor(deps: TAccountDeps, actor: TUserActor) {
  const row = await repo.findProfileRow(deps.db, actor.id);
  if (!row) throw new AppError('NOT_FOUND');
  if (row.user.totp_enabled) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  const secret = generateTotpSecret();
  await repo.updateUser(deps.db, actor.id, {
    totp_secret_enc: encryptSecret(deps.config.encryptionKey, secret),
    totp_last_step: null,
  });
  const uri = otpauthUri(secret, row.user.email);
  const qr = await QRCode.toDataURL(uri, { margin: 1, width: 220 });
  return { secret, otpauth_uri: uri, qr_data_url: qr };
}

async function checkOtp(deps: TAccountDeps, user: authRepo.TUserRow, otp: string): Promise<void> {
  await guardAttempt(
    deps,
    `otp:${user.id}`,
    async () => {
      const secret = decryptSecret(deps.config.encryptionKey, user.totp_secret_enc!);
      const step = verifyTotp(secret, otp, user.totp_last_step ?? null);
      return step !== null && (await authRepo.consumeTotpStep(deps.db, user.id, step));
    },
    new AppError('INVALID_OTP', { field: 'otp' }),
  );
}

export async function enableTwoFactor(deps: TAccountDeps, actor: TUserActor, input: { otp: string }) {
  const user = await authRepo.findUserById(deps.db, actor.id);
  if (!user) throw new AppError('NOT_FOUND');
  if (user.totp_enabled) throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  if (!user.totp_secret_enc) throw new AppError('TWO_FACTOR_NOT_SET_UP');
  await checkOtp(deps, user, input.otp);
  await withTx(deps.db, async (tx) => {
    await repo.updateUser(tx, actor.id, { totp_enabled: true });
    await writeAudit(tx, actor, { action: 'enable_two_factor', entity: 'user', entityId: actor.id });
  });
  return { two_factor_enabled: true };
}

export async function disableTwoFactor(
  deps: TAccountDeps,
  actor: TUserActor,
  input: { password: string; otp: string },
) {
  const user = await authRepo.findUserById(deps.db, actor.id);
  if (!user) throw new AppError('NOT_FOUND');
  if (!user.totp_enabled || !user.totp_secret_enc) throw new AppError('TWO_FACTOR_NOT_SET_UP');
  if (!(await verifyPassword(input.password, user.password_hash)))
    throw new AppError('WRONG_PASSWORD', { field: 'password' });
  await checkOtp(deps, user, input.otp);
  await withTx(deps.db, async (tx) => {
    await repo.updateUser(tx, actor.id, { totp_enabled: false, totp_secret_enc: null, totp_last_step: null });
    await writeAudit(tx, actor, { action: 'disable_two_factor', entity: 'user', entityId: actor.id });
  });
  return { two_factor_enabled: false };
}

/**
 * Activate or deactivate a seller, in the caller's transaction (staff's CRM): deactivating revokes the sessions of
 * every user of the seller, so none can log in or refresh a session. Answers the flag before the change (null: no such
 * seller); no change when it is already so.
 */
export async function changeCustomerActive(
  tx: Executor,
  customerId: string,
  isActive: boolean,
): Promise<{ is_active: boolean } | null> {
  const before = await repo.lockCustomerActive(tx, customerId);
  if (!before || before.is_active === isActive) return before;
  await repo.updateCustomerActive(tx, customerId, isActive);
  if (!isActive)
    for (const id of await repo.userIdsOfCustomer(tx, customerId)) await authRepo.revokeAllForSubject(tx, 'user', id);
  return before;
}

/**
 * Staff set a new password for one of a seller's users, in the caller's transaction: it must be changed at the next
 * login, and every session of the user is revoked. Answers the user (to mail it the password), or null when the user
 * is not that seller's.
 */
export async function setPasswordByStaff(tx: Executor, customerId: string, userId: string, password: string) {
  const user = await repo.lockUserOfCustomer(tx, customerId, userId);
  if (!user) return null;
  await repo.setPasswordToChange(tx, userId, await hashPassword(password));
  await authRepo.revokeAllForSubject(tx, 'user', userId);
  return user;
}
