import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { customers, password_resets, users } from '../../db/schema';

export async function findProfileRow(tx: Executor, userId: string) {
  const [row] = await tx
    .select({ user: users, company: { id: customers.id, name: customers.name } })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customer_id))
    .where(eq(users.id, userId));
  return row;
}

export async function updateUser(tx: Executor, userId: string, patch: Partial<typeof users.$inferInsert>) {
  const [row] = await tx.update(users).set(patch).where(eq(users.id, userId)).returning();
  return row;
}

export async function insertCustomer(tx: Executor, values: typeof customers.$inferInsert) {
  const [row] = await tx.insert(customers).values(values).returning();
  return row!;
}

export async function insertUser(tx: Executor, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).returning();
  return row!;
}

export async function insertPasswordReset(tx: Executor, values: typeof password_resets.$inferInsert) {
  await tx.insert(password_resets).values(values);
}

/** Claim a reset token: conditional update so a token works once even when two requests race. */
export async function consumePasswordReset(tx: Executor, tokenHash: string) {
  const [row] = await tx
    .update(password_resets)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(password_resets.token_hash, tokenHash),
        isNull(password_resets.used_at),
        gt(password_resets.expires_at, new Date()),
      ),
    )
    .returning();
  return row;
}
