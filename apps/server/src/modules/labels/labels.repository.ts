import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { label_sheets } from '../../db/schema';

export type TSheetRow = typeof label_sheets.$inferSelect;

/** Built-in sheets and this customer's own, by cells then name. */
export async function listSheets(tx: Executor, customerId: string, cells?: number) {
  return tx
    .select()
    .from(label_sheets)
    .where(
      and(
        or(isNull(label_sheets.customer_id), eq(label_sheets.customer_id, customerId)),
        cells ? eq(label_sheets.cells, cells) : undefined,
      ),
    )
    .orderBy(asc(label_sheets.cells), asc(label_sheets.customer_id), asc(label_sheets.code));
}

/** The built-in sheets (no seller's own): a read model for staff screens that print across sellers. */
export async function builtinSheets(tx: Executor): Promise<TSheetRow[]> {
  return tx.select().from(label_sheets).where(isNull(label_sheets.customer_id));
}

/** A sheet the customer may print on: built-in or their own. */
export async function findUsableSheet(tx: Executor, customerId: string, id: string) {
  const [row] = await tx
    .select()
    .from(label_sheets)
    .where(
      and(eq(label_sheets.id, id), or(isNull(label_sheets.customer_id), eq(label_sheets.customer_id, customerId))),
    );
  return row;
}

/** One of the customer's own sheets (built-ins are read-only). */
export async function findOwnSheet(tx: Executor, customerId: string, id: string) {
  const [row] = await tx
    .select()
    .from(label_sheets)
    .where(and(eq(label_sheets.id, id), eq(label_sheets.customer_id, customerId)));
  return row;
}

export async function insertSheet(tx: Executor, values: typeof label_sheets.$inferInsert) {
  const [row] = await tx.insert(label_sheets).values(values).returning();
  return row!;
}

export async function updateSheet(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof label_sheets.$inferInsert>,
) {
  const [row] = await tx
    .update(label_sheets)
    .set(patch)
    .where(and(eq(label_sheets.id, id), eq(label_sheets.customer_id, customerId)))
    .returning();
  return row;
}

export async function deleteSheet(tx: Executor, customerId: string, id: string) {
  await tx.delete(label_sheets).where(and(eq(label_sheets.id, id), eq(label_sheets.customer_id, customerId)));
}
