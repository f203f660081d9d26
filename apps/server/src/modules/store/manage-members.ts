import {
  DEFAULT_LANGUAGE,
  type TCreateStoreMember,
  type TLanguage,
  type TStoreMember,
  type TStoreMemberQuery,
  type TUpdateStoreMember,
} from '@wms/contracts';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { generatePassword, hashPassword } from '../../platform/crypto';
import { AppError, notFound } from '../../platform/errors';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { mailDelivery, queueMail, renderMail } from '../../platform/mail';
import * as authRepo from '../auth';
import * as repo from './store.repository';
import { requireStore, type TStoreDeps, toMember } from './store.service';

export async function listMembers(deps: TStoreDeps, actor: TActor, q: TStoreMemberQuery) {
  const { count, rows } = await repo.listMembers(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toMember) };
}

export async function exportMembers(deps: TStoreDeps, actor: TActor, q: TStoreMemberQuery) {
  return (await repo.listMembers(deps.db, tenantOf(actor), { ...q, all: EXPORT_MAX_ROWS })).rows.map(toMember);
}

/** Queue the member's login mail (the store's login link, the corporation to type, the password) in `tx`. */
async function queueMemberMail(
  deps: TStoreDeps,
  tx: Parameters<typeof queueMail>[1],
  store: repo.TStoreRow,
  member: { name: string; email: string },
  password: string,
  lang: TLanguage,
): Promise<void> {
  const mail = renderMail('store_member', lang, {
    name: member.name,
    store: store.name,
    corp: store.short_url,
    email: member.email,
    password,
    link: `${deps.config.publicUrl}/store/login/${store.short_url}`,
  });
  await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: member.email, ...mail });
}

/** Create a member of the seller's store and mail them the login link and a password (theirs or a generated one). */
export async function createMember(
  deps: TStoreDeps,
  actor: TActor,
  input: TCreateStoreMember,
  lang: TLanguage = DEFAULT_LANGUAGE,
): Promise<TStoreMember> {
  const customerId = tenantOf(actor);
  const store = await requireStore(deps, customerId);
  const password = input.password ?? generatePassword();
  const hash = await hashPassword(password);
  const email = input.email.trim().toLowerCase();
  let row: repo.TMemberRow;
  try {
    row = await withTx(deps.db, async (tx) => {
      const created = await repo.insertMember(tx, {
        customer_id: customerId,
        store_id: store.id,
        email,
        name: input.name,
        phone: input.phone ?? '',
        postcode: input.postcode ?? '',
        address: input.address ?? '',
        is_active: input.is_active ?? true,
        password_hash: hash,
      });
      await writeAudit(tx, actor, {
        action: 'create',
        entity: 'store_member',
        entityId: created.id,
        after: toMember(created),
      });
      await queueMemberMail(deps, tx, store, created, password, lang);
      return created;
    });
  } catch (err) {
    if (sqlState(err) === '23505') throw new AppError('DUPLICATE_VALUE', { field: 'email' });
    throw err;
  }
  deps.jobs.kick(mailDelivery.name);
  return toMember(row);
}

/** Change a member; deactivating one revokes their sessions at once (refresh tokens, and every member call checks). */
export async function updateMember(
  deps: TStoreDeps,
  actor: TActor,
  id: string,
  input: TUpdateStoreMember,
): Promise<TStoreMember> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await repo.memberOf(tx, customerId, id);
    if (!before) throw notFound();
    const row = await repo.updateMember(tx, id, input);
    if (before.is_active && !input.is_active) await authRepo.revokeAllForSubject(tx, 'member', id);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'store_member',
      entityId: id,
      before: toMember(before),
      after: toMember(row),
    });
    return toMember(row);
  });
}

/** A new generated password, mailed to the member; their sessions end. */
export async function resetMemberPassword(
  deps: TStoreDeps,
  actor: TActor,
  id: string,
  lang: TLanguage = DEFAULT_LANGUAGE,
) {
  const customerId = tenantOf(actor);
  const password = generatePassword();
  const hash = await hashPassword(password);
  await withTx(deps.db, async (tx) => {
    const member = await repo.memberOf(tx, customerId, id);
    if (!member) throw notFound();
    const store = await repo.storeById(tx, member.store_id);
    if (!store) throw notFound();
    await repo.updateMember(tx, id, { password_hash: hash, password_changed_at: new Date() });
    await authRepo.revokeAllForSubject(tx, 'member', id);
    await writeAudit(tx, actor, { action: 'reset_password', entity: 'store_member', entityId: id });
    await queueMemberMail(deps, tx, store, member, password, lang);
  });
  deps.jobs.kick(mailDelivery.name);
  return { ok: true as const };
}
