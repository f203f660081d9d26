import type { TStoreCatalog, TStoreOrderQuery, TUpdateMemberProfile } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { hashPassword, verifyPassword } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import * as authRepo from '../auth';
import { memberProfileOf } from '../auth';
import * as repo from './store.repository';
import { CATALOG_MAX, money2, ordersPage, requireStore, type TStoreDeps, toMember, totalOf } from './store.service';

export type TMemberActor = Extract<TActor, { kind: 'member' }>;

/** The calling member, still active, and their store: a deactivated member's access token stops working at once. */
export async function activeMember(deps: TStoreDeps, actor: TMemberActor) {
  const member = await repo.memberById(deps.db, actor.id);
  if (!member?.is_active || member.store_id !== actor.storeId || member.customer_id !== actor.customerId)
    throw new AppError('TOKEN_INVALID');
  const store = await repo.storeById(deps.db, member.store_id);
  if (!store) throw new AppError('TOKEN_INVALID');
  return { member, store };
}

export async function updateMemberProfile(deps: TStoreDeps, actor: TMemberActor, input: TUpdateMemberProfile) {
  const { member } = await activeMember(deps, actor);
  const row = await withTx(deps.db, async (tx) => {
    const updated = await repo.updateMember(tx, member.id, input);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'store_member',
      entityId: member.id,
      before: toMember(member),
      after: toMember(updated),
    });
    return updated;
  });
  return memberProfileOf(deps, row);
}

/** The member's own password: the current one is checked; every session ends ("Change successful, please log in again"). */
export async function changeMemberPassword(
  deps: TStoreDeps,
  actor: TMemberActor,
  input: { old_password: string; new_password: string },
) {
  const { member } = await activeMember(deps, actor);
  if (!(await verifyPassword(input.old_password, member.password_hash)))
    throw new AppError('WRONG_PASSWORD', { field: 'old_password' });
  const hash = await hashPassword(input.new_password);
  await withTx(deps.db, async (tx) => {
    await repo.updateMember(tx, member.id, { password_hash: hash, password_changed_at: new Date() });
    await authRepo.revokeAllForSubject(tx, 'member', member.id);
    await writeAudit(tx, actor, { action: 'change_password', entity: 'store_member', entityId: member.id });
  });
  return { ok: true as const };
}

async function catalogOf(deps: TStoreDeps, store: repo.TStoreRow): Promise<TStoreCatalog> {
  const products = await repo.listedProducts(deps.db, store.customer_id, CATALOG_MAX);
  const stock = await repo.availability(
    deps.db,
    store.customer_id,
    products.map((p) => p.id),
    taipeiToday(),
  );
  return {
    store: {
      name: store.name,
      short_url: store.short_url,
      description: store.description,
      logo: store.logo,
      is_open: store.is_open,
    },
    products: products.map((p) => ({
      id: p.id,
      number: p.number,
      name: p.name,
      unit: p.unit || null,
      selling_price: money2(p.selling_price),
      available: totalOf(stock.get(p.id)),
    })),
    providers: await repo.activeProviders(deps.db, store.customer_id),
  };
}

/** A member's catalogue: a closed store shows itself (name, logo, closed) but none of its products, prices or stock. */
export async function memberCatalog(deps: TStoreDeps, actor: TMemberActor): Promise<TStoreCatalog> {
  const { store } = await activeMember(deps, actor);
  if (!store.is_open) {
    const { name, short_url, description, logo, is_open } = store;
    return { store: { name, short_url, description, logo, is_open }, products: [], providers: [] };
  }
  return catalogOf(deps, store);
}

export async function sellerCatalog(deps: TStoreDeps, actor: TActor) {
  return catalogOf(deps, await requireStore(deps, tenantOf(actor)));
}

export async function listMemberOrders(deps: TStoreDeps, actor: TMemberActor, q: TStoreOrderQuery) {
  const { member, store } = await activeMember(deps, actor);
  return ordersPage(deps, { customerId: store.customer_id, storeId: store.id, memberId: member.id }, q);
}
