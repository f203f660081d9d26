import { randomUUID } from 'node:crypto';
import type { TRole } from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import type { TokenService } from '../../platform/auth';
import { decryptSecret, dummyPasswordHash, verifyPassword } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { RateLimits } from '../../platform/rate-limit';
import { verifyTotp } from '../../platform/totp';
import * as repo from './auth.repository';

const OTP_WINDOW_MS = 5 * 60 * 1000;

export interface TAuthDeps {
  db: Db;
  config: TConfig;
  tokens: TokenService;
  rateLimits: RateLimits;
}

function lockedError(until: Date): AppError {
  return new AppError('ACCOUNT_LOCKED', { minutes: Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60000)) });
}

/**
 * One guessing attempt on `key` (an account from one client address, an OTP challenge): counted before `check` runs
 * and forgiven when it passes. The attempt that reaches LOGIN_MAX_FAILURES (or any after it) locks the key — for a
 * minute, then each next lock twice as long, at most LOGIN_LOCK_MINUTES; after a lock one more guess is checked. A
 * check that passes while a parallel one set the lock is refused too. `check` answers false for a wrong guess; an
 * error it throws is not a guess and gives the attempt back.
 */
export async function guardAttempt(
  deps: Pick<TAuthDeps, 'db' | 'config'>,
  key: string,
  check: () => Promise<boolean>,
  wrong: AppError,
): Promise<void> {
  const max = deps.config.loginMaxFailures;
  const { failures, locked_until } = await repo.reserveAttempt(deps.db, key, max);
  if (locked_until && locked_until.getTime() > Date.now()) throw lockedError(locked_until);
  if (failures > max) throw lockedError(await repo.lockAttempts(deps.db, key, deps.config.loginLockMinutes));
  let ok: boolean;
  try {
    ok = await check();
  } catch (err) {
    await repo.releaseAttempt(deps.db, key);
    throw err;
  }
  if (!ok) {
    if (failures >= max) throw lockedError(await repo.lockAttempts(deps.db, key, deps.config.loginLockMinutes));
    throw wrong;
  }
  const lockedMeanwhile = await repo.forgiveAttempts(deps.db, key);
  if (lockedMeanwhile) throw lockedError(lockedMeanwhile);
}

/** Login, OTP and member-login attempts of one client address share a per-minute budget. */
async function limitClient(deps: TAuthDeps, ip: string): Promise<void> {
  await deps.rateLimits.consume('auth-ip', ip, { points: deps.config.authIpLimitPerMinute, durationSeconds: 60 });
}

/** Start a new refresh-token family for a subject and sign the pair. */
async function issueUserTokens(deps: TAuthDeps, user: { id: string; role: string; customer_id: string | null }) {
  const jti = randomUUID();
  await repo.touchLastLogin(deps.db, user.id);
  const failed = await repo.takeFailedLogins(deps.db, user.id);
  const family = randomUUID();
  await repo.insertRefreshToken(deps.db, {
    id: jti,
    family_id: family,
    subject_type: 'user',
    subject_id: user.id,
    expires_at: new Date(Date.now() + deps.config.refreshTtl * 1000),
  });
  const pair = await signUserPair(deps, user, jti, family);
  return failed ? { ...pair, failed_logins: { count: failed.count, last_at: failed.last_at.toISOString() } } : pair;
}

async function signUserPair(
  deps: TAuthDeps,
  user: { id: string; role: string; customer_id: string | null },
  jti: string,
  family: string,
) {
  const role = user.role as TRole;
  const access = await deps.tokens.sign(
    { sub: user.id, typ: 'access', role, cid: user.customer_id },
    deps.tokens.accessTtl,
  );
  const refresh = await deps.tokens.sign({ sub: user.id, typ: 'refresh', fam: family, jti }, deps.tokens.refreshTtl);
  return { status: 'login' as const, access, refresh, role };
}

/**
 * POST /api/login/: same 401 for unknown e-mail and wrong password. Failures are counted per account and client
 * address (OWASP ASVS 2.2): an address that keeps guessing is locked out of that account, progressively longer, while
 * the owner signing in from another address is not; each wrong password is counted on the account too, and the user
 * is told of them at their next sign-in (`failed_logins`).
 */
export async function login(deps: TAuthDeps, input: { email: string; password: string }, ip: string) {
  await limitClient(deps, ip);
  const email = input.email.trim().toLowerCase();
  const user = await repo.findUserByEmail(deps.db, email);
  await guardAttempt(
    deps,
    `login:${email}|${ip}`,
    async () => {
      const right = await verifyPassword(input.password, user?.password_hash ?? (await dummyPasswordHash()));
      if (user && !right) await repo.noteFailedLogin(deps.db, user.id);
      return right && !!user?.is_active;
    },
    new AppError('INVALID_CREDENTIALS'),
  );
  if (!user) throw new AppError('INVALID_CREDENTIALS');
  if (user.totp_enabled) {
    await repo.setOtpPending(deps.db, user.id, new Date(Date.now() + OTP_WINDOW_MS));
    return { status: 'otp' as const, user_id: user.id };
  }
  return issueUserTokens(deps, user);
}

/** POST /api/verify-otp/: the second step; a code works once and attempts are limited. */
export async function verifyOtp(deps: TAuthDeps, input: { user_id: string; otp: string }, ip: string) {
  await limitClient(deps, ip);
  const user = await repo.findUserById(deps.db, input.user_id);
  await guardAttempt(
    deps,
    `otp:${input.user_id}`,
    async () => {
      if (!user?.is_active || !user.totp_enabled || !user.totp_secret_enc) throw new AppError('OTP_NOT_PENDING');
      if (!user.otp_pending_until || user.otp_pending_until.getTime() < Date.now()) {
        throw new AppError('OTP_NOT_PENDING');
      }
      const secret = decryptSecret(deps.config.encryptionKey, user.totp_secret_enc);
      const step = verifyTotp(secret, input.otp, user.totp_last_step ?? null);
      return step !== null && (await repo.consumeTotpStep(deps.db, user.id, step));
    },
    new AppError('INVALID_OTP'),
  );
  if (!user) throw new AppError('OTP_NOT_PENDING');
  return issueUserTokens(deps, user);
}

type TRotation = { ok: true; jti: string; family: string; subjectId: string } | { ok: false };

/**
 * Rotate a refresh token in one transaction; a used or revoked one coming back revokes its whole family, except a
 * used one within REFRESH_REUSE_GRACE_SECONDS of its rotation (a retry of the same client).
 */
async function rotate(
  deps: TAuthDeps,
  token: string,
  typ: 'refresh' | 'member_refresh',
  subjectType: 'user' | 'member',
) {
  const claims = await deps.tokens.verify(token, typ);
  const result = await withTx<TRotation>(deps.db, async (tx) => {
    const row = await repo.lockRefreshToken(tx, claims.jti);
    if (!row || row.subject_type !== subjectType || row.subject_id !== claims.sub) return { ok: false };
    // A token used moments ago is the same client retrying (a reload while the answer was on its way, two tabs
    // refreshing at once): it gets a sibling token in the same family. Used any later, it was stolen.
    const retried =
      row.used_at !== null &&
      !row.revoked_at &&
      Date.now() - row.used_at.getTime() <= deps.config.refreshReuseGrace * 1000;
    if ((row.used_at && !retried) || row.revoked_at || row.expires_at.getTime() < Date.now()) {
      await repo.revokeFamily(tx, row.family_id);
      return { ok: false };
    }
    if (!retried) await repo.markRefreshUsed(tx, row.id);
    const jti = randomUUID();
    await repo.insertRefreshToken(tx, {
      id: jti,
      family_id: row.family_id,
      subject_type: subjectType,
      subject_id: row.subject_id,
      expires_at: new Date(Date.now() + deps.config.refreshTtl * 1000),
    });
    return { ok: true, jti, family: row.family_id, subjectId: row.subject_id };
  });
  if (!result.ok) throw new AppError('TOKEN_INVALID');
  return result;
}

/** POST /api/token/refresh/ → a new access token and a rotated refresh token. */
export async function refreshUserToken(deps: TAuthDeps, token: string) {
  const r = await rotate(deps, token, 'refresh', 'user');
  const user = await repo.findUserById(deps.db, r.subjectId);
  if (!user?.is_active) throw new AppError('TOKEN_INVALID');
  const pair = await signUserPair(deps, user, r.jti, r.family);
  return { access: pair.access, refresh: pair.refresh };
}

/** Revoke the family of a refresh token (user or member). Unknown tokens are ignored. */
export async function logout(deps: TAuthDeps, token: string) {
  for (const typ of ['refresh', 'member_refresh'] as const) {
    try {
      const claims = await deps.tokens.verify(token, typ);
      const row = await repo.lockRefreshToken(deps.db, claims.jti);
      if (row) await repo.revokeFamily(deps.db, row.family_id);
      break;
    } catch {
      // not this kind of token
    }
  }
  return { ok: true as const };
}

export async function memberProfileOf(deps: Pick<TAuthDeps, 'db'>, member: repo.TMemberRow) {
  const store = await repo.findStoreById(deps.db, member.store_id);
  if (!store) throw new AppError('TOKEN_INVALID');
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    phone: member.phone,
    postcode: member.postcode,
    address: member.address,
    store: {
      id: store.id,
      name: store.name,
      short_url: store.short_url,
      description: store.description,
      logo: store.logo,
      is_open: store.is_open,
    },
  };
}

async function signMemberPair(deps: TAuthDeps, member: repo.TMemberRow, jti: string, family: string) {
  const access = await deps.tokens.sign(
    { sub: member.id, typ: 'member_access', sid: member.store_id, cid: member.customer_id },
    deps.tokens.accessTtl,
  );
  const refresh = await deps.tokens.sign(
    { sub: member.id, typ: 'member_refresh', fam: family, jti },
    deps.tokens.refreshTtl,
  );
  return { access, refresh };
}

/** POST /api/member-login/ {corp, email, password}: `corp` names the store by its short URL. */
export async function memberLogin(
  deps: TAuthDeps,
  input: { corp: string; email: string; password: string },
  ip: string,
) {
  await limitClient(deps, ip);
  const email = input.email.trim().toLowerCase();
  const corp = input.corp.trim().toLowerCase();
  const store = await repo.findStoreByShortUrl(deps.db, corp);
  const member = store ? await repo.findMember(deps.db, store.id, email) : undefined;
  await guardAttempt(
    deps,
    `member:${corp}:${email}|${ip}`,
    async () =>
      (await verifyPassword(input.password, member?.password_hash ?? (await dummyPasswordHash()))) &&
      !!member?.is_active,
    new AppError('INVALID_CREDENTIALS'),
  );
  if (!member) throw new AppError('INVALID_CREDENTIALS');
  const jti = randomUUID();
  const family = randomUUID();
  await repo.insertRefreshToken(deps.db, {
    id: jti,
    family_id: family,
    subject_type: 'member',
    subject_id: member.id,
    expires_at: new Date(Date.now() + deps.config.refreshTtl * 1000),
  });
  return { ...(await signMemberPair(deps, member, jti, family)), profile: await memberProfileOf(deps, member) };
}

export async function refreshMemberToken(deps: TAuthDeps, token: string) {
  const r = await rotate(deps, token, 'member_refresh', 'member');
  const member = await repo.findMemberById(deps.db, r.subjectId);
  if (!member?.is_active) throw new AppError('TOKEN_INVALID');
  return signMemberPair(deps, member, r.jti, r.family);
}

export async function getMemberProfile(deps: TAuthDeps, memberId: string) {
  const member = await repo.findMemberById(deps.db, memberId);
  if (!member?.is_active) throw new AppError('NOT_FOUND');
  return memberProfileOf(deps, member);
}
