import {
  RACK_LABELS_MAX,
  type TCrmCustomer,
  type TCrmCustomerDetail,
  type TCrmDashboard,
  type TCrmRackLabels,
  type TLabelDocument,
  type TListQuery,
} from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db, Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { generatePassword } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { mailDelivery, queueMail, renderMail } from '../../platform/mail';
import { changeCustomerActive, setPasswordByStaff } from '../account';
import { builtinSheets, layoutLabels, type TLabelSource, toSheet } from '../labels';
import { NO_SHIPMENTS, onTimeRates } from '../ships';
import * as repo from './crm.repository';

/**
 * The employees' CRM reads and actions (spec §2.7). The only use cases that cross tenants: every route is
 * `auth: 'employee'`, and each action's audit row names the seller it touched.
 */
export interface TCrmDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
}

// ---- customers

const toCustomer = ({ invoice_title, invoice_address, website, ...r }: repo.TCustomerRow): TCrmCustomer => r;

/** GET /api/crm/customers/: every seller company, with its contact, users, stock, this month's orders, activity. */
export async function listCustomers(deps: TCrmDeps, q: TListQuery & { is_active?: 'true' | 'false' }) {
  const { rows, count } = await repo.customerPage(deps.db, q);
  return { count, results: rows.map(toCustomer) };
}

/** GET /api/crm/customers/:id/: the seller, its users, warehouses and latest activity. */
export async function getCustomer(deps: { db: Executor }, id: string): Promise<TCrmCustomerDetail> {
  const row = await repo.findCustomer(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  const { users, warehouses, activity } = await repo.customerDetail(deps.db, id);
  return { ...row, users, warehouses, activity };
}

/** PUT /api/crm/customers/:id/active/: a deactivated seller's users can no longer log in or refresh a session. */
export async function setCustomerActive(deps: TCrmDeps, actor: TActor, id: string, isActive: boolean) {
  return withTx(deps.db, async (tx) => {
    const before = await changeCustomerActive(tx, id, isActive);
    if (!before) throw new AppError('NOT_FOUND');
    if (before.is_active !== isActive) {
      await writeAudit(tx, actor, {
        action: isActive ? 'activate' : 'deactivate',
        entity: 'customer',
        entityId: id,
        customerId: id,
        before,
        after: { is_active: isActive },
      });
    }
    return getCustomer({ db: tx }, id);
  });
}

/** POST /api/crm/customers/:id/reset-password/: a new password for one of the seller's users, sent to it by mail. */
export async function resetUserPassword(deps: TCrmDeps, actor: TActor, customerId: string, userId: string) {
  await withTx(deps.db, async (tx) => {
    const password = generatePassword();
    const user = await setPasswordByStaff(tx, customerId, userId, password);
    if (!user) throw new AppError('NOT_FOUND');
    await writeAudit(tx, actor, {
      action: 'reset_password',
      entity: 'user',
      entityId: userId,
      customerId,
      after: { email: user.email },
    });
    const lang = user.language === 'ja' || user.language === 'en' ? user.language : 'zh-TW';
    const mail = renderMail('password_set_by_staff', lang, {
      name: user.name,
      company: user.company,
      email: user.email,
      password,
      url: deps.config.publicUrl,
    });
    await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: user.email, ...mail, carriesPassword: true });
  });
  deps.jobs.kick(mailDelivery.name);
  return { ok: true as const };
}

// ---- dashboard

/** Stock expiring within this many days counts as "near expiry" on the dashboard. */
export const NEAR_EXPIRY_DAYS = 30;

/** GET /api/crm/dashboard/: the workload across sellers. */
export async function dashboard(deps: { db: Db }): Promise<TCrmDashboard> {
  const { totals, recent, byCustomer, days } = await repo.dashboardFigures(deps.db, NEAR_EXPIRY_DAYS);
  const onTime = await onTimeRates(
    deps.db,
    byCustomer.map((c) => c.customer_id),
  );
  return {
    totals: { ...totals, orders_today: recent?.today ?? 0, orders_this_week: recent?.week ?? 0 },
    by_customer: byCustomer.map((c) => {
      const r = onTime.get(c.customer_id) ?? NO_SHIPMENTS;
      return { ...c, on_time_percent: r.percent, shipped_30d: r.shipped };
    }),
    days,
  };
}

// ---- rack and stock (read-only)

/**
 * POST /api/crm/rack/labels/: labels (Code 128 of the location code; the seller and warehouse as the name) of the
 * locations a rack search finds, on the built-in 45-cell sheet. More than RACK_LABELS_MAX is refused.
 */
export async function rackLabels(deps: { db: Db }, q: TCrmRackLabels): Promise<TLabelDocument> {
  const rows = await repo.rackLabelRows(deps.db, q, RACK_LABELS_MAX);
  if (rows.length === 0) throw new AppError('NOT_FOUND');
  if (rows.length > RACK_LABELS_MAX) throw new AppError('ABNORMAL_QUANTITY', { field: 'items' });
  const builtins = await builtinSheets(deps.db);
  const sheet = builtins.find((b) => b.cells === 45) ?? builtins.sort((a, b) => a.cells - b.cells)[0];
  if (!sheet) throw new AppError('NOT_FOUND');
  const sources = new Map<string, TLabelSource>(
    rows.map((r) => [r.id, { id: r.id, value: r.code, caption: r.code, name: r.name }]),
  );
  return layoutLabels(toSheet(sheet), sources, {
    items: rows.map((r) => ({ id: r.id, copies: 1 })),
    start_cell: 1,
    symbology: 'code128',
    show_name: true,
  });
}

/** GET /api/crm/rack/: storage locations across sellers with their occupancy. */
export async function rack(
  deps: { db: Db },
  q: TListQuery & { customer_id?: string; warehouse?: string; state?: 'empty' | 'in_use' },
) {
  const { rows, count } = await repo.rackPage(deps.db, q);
  return { count, results: rows as never[] };
}

/** GET /api/crm/stock/: stock piles across sellers. */
export async function stock(
  deps: { db: Db },
  q: TListQuery & { customer_id?: string; warehouse?: string; expiry_before?: string },
) {
  const { rows, count } = await repo.stockPage(deps.db, q);
  return { count, results: rows as never[] };
}

/** GET /api/crm/stock/:id/movements/: the ledger of one pile (newest first, at most 200). */
export async function stockMovements(deps: { db: Db }, balanceId: string) {
  if (!(await repo.balanceExists(deps.db, balanceId))) throw new AppError('NOT_FOUND');
  return repo.balanceMovements(deps.db, balanceId);
}
