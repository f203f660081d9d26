import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { ecommerce_platforms, order_import_forms } from '../../db/schema';

/** The SQL of the custom order-file layouts (order_import_forms, /deliver-customize-form). */

export type TFormRow = typeof order_import_forms.$inferSelect;

// ---- import forms and column settings ----

export async function listForms(ex: Executor, customerId: string) {
  return ex
    .select({
      form: order_import_forms,
      platform_code: ecommerce_platforms.code,
      platform_name: ecommerce_platforms.name,
    })
    .from(order_import_forms)
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, order_import_forms.platform_id))
    .where(eq(order_import_forms.customer_id, customerId))
    .orderBy(asc(order_import_forms.name), asc(order_import_forms.id));
}

export async function findForm(ex: Executor, customerId: string, id: string) {
  const [row] = await ex
    .select({
      form: order_import_forms,
      platform_code: ecommerce_platforms.code,
      platform_name: ecommerce_platforms.name,
    })
    .from(order_import_forms)
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, order_import_forms.platform_id))
    .where(and(eq(order_import_forms.id, id), eq(order_import_forms.customer_id, customerId)));
  return row;
}

/** The saved layout of a channel (platform, or null for files without one). */
export async function findFormForPlatform(ex: Executor, customerId: string, platformId: string | null) {
  const [row] = await ex
    .select()
    .from(order_import_forms)
    .where(
      and(
        eq(order_import_forms.customer_id, customerId),
        platformId ? eq(order_import_forms.platform_id, platformId) : isNull(order_import_forms.platform_id),
      ),
    );
  return row;
}

export async function insertForm(tx: Tx, values: typeof order_import_forms.$inferInsert): Promise<TFormRow> {
  const [row] = await tx.insert(order_import_forms).values(values).returning();
  return row!;
}

export async function updateForm(
  tx: Tx,
  customerId: string,
  id: string,
  patch: Partial<typeof order_import_forms.$inferInsert>,
) {
  await tx
    .update(order_import_forms)
    .set(patch)
    .where(and(eq(order_import_forms.id, id), eq(order_import_forms.customer_id, customerId)));
}

export async function deleteForm(tx: Tx, customerId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(order_import_forms)
    .where(and(eq(order_import_forms.id, id), eq(order_import_forms.customer_id, customerId)))
    .returning({ id: order_import_forms.id });
  return rows.length === 1;
}
