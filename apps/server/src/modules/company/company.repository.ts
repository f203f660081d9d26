import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { customers } from '../../db/schema';

export type TCompanyRow = typeof customers.$inferSelect;

export async function findCompany(tx: Executor, customerId: string) {
  const [row] = await tx.select().from(customers).where(eq(customers.id, customerId));
  return row;
}

export async function updateCompany(tx: Executor, customerId: string, patch: Partial<typeof customers.$inferInsert>) {
  const [row] = await tx.update(customers).set(patch).where(eq(customers.id, customerId)).returning();
  return row;
}
