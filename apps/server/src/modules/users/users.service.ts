import {
  SELLER_ROLE_LABELS,
  type TAuditQuery,
  type TCompanyUser,
  type TCustomGrant,
  type TInviteUser,
  type TLanguage,
  type TListQuery,
  type TUpdateCompanyUser,
} from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { hashPassword, randomToken, sha256Hex } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { EXPORT_MAX_ROWS, iso } from '../../platform/listing';
import { mailDelivery, queueMail, renderMail } from '../../platform/mail';
import type { RateLimits } from '../../platform/rate-limit';
import * as accountRepo from '../account';
import * as authRepo from '../auth';
import * as repo from './users.repository';

export interface TUsersDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
  rateLimits: RateLimits;
}

/** An invitation's set-password link works this long (a reset link: 60 minutes). */
export const INVITE_TTL_DAYS = 7;

function view(u: repo.TUserRow): TCompanyUser {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    seller_role: u.seller_role as TCompanyUser['seller_role'],
    menu_access: (u.seller_role === 'custom' ? u.menu_access : []) as TCustomGrant[],
    is_active: u.is_active,
    invited: u.invited_at !== null,
    two_factor_enabled: u.totp_enabled,
    two_factor_required: u.two_factor_required,
    last_login_at: iso(u.last_login_at),
    created_at: u.created_at.toISOString(),
  };
}

/** The parts of a user an audit row keeps (never the password hash or the two-step secret). */
const audited = (u: repo.TUserRow) => ({
  name: u.name,
  email: u.email,
  seller_role: u.seller_role,
  menu_access: u.menu_access,
  is_active: u.is_active,
  two_factor_required: u.two_factor_required,
});

export async function listUsers(deps: TUsersDeps, actor: TActor, q: TListQuery) {
  const { count, rows } = await repo.listUsers(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(view) };
}

/** Queue a set-password mail (an invitation, or a reset by the admin) in the caller's transaction. */
async function queueSetPasswordMail(
  deps: TUsersDeps,
  tx: Parameters<Parameters<typeof withTx>[1]>[0],
  user: repo.TUserRow,
  kind: 'user_invite' | 'password_reset',
  inviter: string,
) {
  // Mails to one address share its budget with the forgot-password mails (429 RATE_LIMITED over it).
  await deps.rateLimits.consume('mail-address', user.email, {
    points: deps.config.mailAddressLimitPerHour,
    durationSeconds: 3600,
  });
  const token = randomToken(24);
  const minutes = kind === 'user_invite' ? INVITE_TTL_DAYS * 24 * 60 : 60;
  await accountRepo.insertPasswordReset(tx, {
    user_id: user.id,
    token_hash: sha256Hex(token),
    expires_at: new Date(Date.now() + minutes * 60 * 1000),
  });
  const language = user.language as TLanguage;
  const link = `${deps.config.publicUrl}/format-password?token=${encodeURIComponent(token)}`;
  const mail = renderMail(kind, language, {
    name: user.name,
    email: user.email,
    company: await repo.companyName(tx, user.customer_id!),
    inviter,
    role: SELLER_ROLE_LABELS[user.seller_role as keyof typeof SELLER_ROLE_LABELS][language],
    link,
    days: String(INVITE_TTL_DAYS),
    minutes: String(minutes),
    url: deps.config.publicUrl,
  });
  await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: user.email, ...mail });
}

async function actorName(deps: TUsersDeps, actor: TActor): Promise<string> {
  const row = actor.id ? await authRepo.findUserById(deps.db, actor.id) : undefined;
  return row?.name ?? '';
}

/**
 * Invite a user into the seller's company: the account exists at once with an unusable password, and a mail (through
 * the platform.mail job) carries a set-password link valid INVITE_TTL_DAYS.
 */
export async function inviteUser(deps: TUsersDeps, actor: TActor, input: TInviteUser, lang: TLanguage) {
  const customerId = tenantOf(actor);
  const email = input.email.trim().toLowerCase();
  const inviter = await actorName(deps, actor);
  // Nobody knows this password: the user chooses theirs through the link.
  const hash = await hashPassword(randomToken(32));
  try {
    const user = await withTx(deps.db, async (tx) => {
      if (await authRepo.findUserByEmail(tx, email)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
      const row = await accountRepo.insertUser(tx, {
        customer_id: customerId,
        email,
        name: input.name,
        role: 'CUSTOMER',
        password_hash: hash,
        language: input.language ?? lang,
        seller_role: input.seller_role,
        menu_access: input.seller_role === 'custom' ? [...new Set(input.menu_access ?? [])] : [],
        invited_at: new Date(),
      });
      await writeAudit(tx, actor, { action: 'invite', entity: 'user', entityId: row.id, after: audited(row) });
      await queueSetPasswordMail(deps, tx, row, 'user_invite', inviter);
      return row;
    });
    deps.jobs.kick(mailDelivery.name);
    return view(user);
  } catch (err) {
    if (sqlState(err) === '23505') throw new AppError('EMAIL_TAKEN', { field: 'email' });
    throw err;
  }
}

/** The company keeps an active owner, and an admin never locks themselves out by their own hand. */
async function keepOwner(
  tx: Parameters<Parameters<typeof withTx>[1]>[0],
  actor: TActor,
  before: repo.TUserRow,
  losesOwner: boolean,
) {
  if (!losesOwner) return;
  if (before.id === actor.id) throw new AppError('LAST_OWNER');
  if (before.seller_role === 'owner' && (await repo.countOtherActiveOwners(tx, before.customer_id!, before.id)) === 0)
    throw new AppError('LAST_OWNER');
}

/** Edit name, role, custom access, or require two-step login. A role change acts at the user's next call. */
export async function updateUser(deps: TUsersDeps, actor: TActor, id: string, patch: TUpdateCompanyUser) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findUser(tx, customerId, id, true);
    if (!before) throw new AppError('NOT_FOUND');
    const role = patch.seller_role ?? before.seller_role;
    await keepOwner(tx, actor, before, before.seller_role === 'owner' && role !== 'owner');
    const set: Partial<repo.TUserRow> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.seller_role !== undefined) set.seller_role = patch.seller_role;
    if (patch.two_factor_required !== undefined) set.two_factor_required = patch.two_factor_required;
    if (role === 'custom') {
      if (patch.menu_access !== undefined) set.menu_access = [...new Set(patch.menu_access)];
    } else set.menu_access = [];
    const after = Object.keys(set).length ? await accountRepo.updateUser(tx, id, set) : before;
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'user',
      entityId: id,
      before: audited(before),
      after: audited(after!),
    });
    return view(after!);
  });
}

/** Deactivate: refresh tokens are revoked and the gate refuses the user's access token at the next call (401). */
export async function setActive(deps: TUsersDeps, actor: TActor, id: string, active: boolean) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.findUser(tx, customerId, id, true);
    if (!before) throw new AppError('NOT_FOUND');
    if (!active) await keepOwner(tx, actor, before, before.is_active);
    const after = await accountRepo.updateUser(tx, id, { is_active: active });
    if (!active) await authRepo.revokeAllForSubject(tx, 'user', id);
    await writeAudit(tx, actor, {
      action: active ? 'activate' : 'deactivate',
      entity: 'user',
      entityId: id,
      before: { is_active: before.is_active },
      after: { is_active: active },
    });
    return view(after!);
  });
}

/** The admin sends a user a set-password link (an invitation again while the first one is unused). */
export async function resetPassword(deps: TUsersDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  const inviter = await actorName(deps, actor);
  await withTx(deps.db, async (tx) => {
    const user = await repo.findUser(tx, customerId, id);
    if (!user) throw new AppError('NOT_FOUND');
    if (!user.is_active) throw new AppError('NOT_FOUND');
    await queueSetPasswordMail(deps, tx, user, user.invited_at ? 'user_invite' : 'password_reset', inviter);
    await writeAudit(tx, actor, { action: 'send_password_link', entity: 'user', entityId: id });
  });
  deps.jobs.kick(mailDelivery.name);
  return { ok: true as const };
}

export async function auditTrail(deps: TUsersDeps, actor: TActor, q: TAuditQuery) {
  const { count, rows } = await repo.listAudit(deps.db, tenantOf(actor), q);
  return { count, results: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
}

export async function auditTrailForExport(deps: TUsersDeps, actor: TActor, q: TAuditQuery) {
  const { rows } = await repo.listAudit(deps.db, tenantOf(actor), { ...q, page: 1, all: EXPORT_MAX_ROWS });
  return rows;
}
