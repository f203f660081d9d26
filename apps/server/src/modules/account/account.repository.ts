import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { customers, password_resets, users } from '../../db/schema';

/** Lock the seller's row for the rest of the transaction (one purge request at a time per seller): its name. */
export async function lockCustomer(tx: Executor, customerId: string): Promise<{ name: string } | undefined> {
  const [row] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('update');
  return row;
}

/** Whether any user exists (an empty database is seeded). */
export async function hasAnyUser(tx: Executor): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).limit(1);
  return !!row;
}

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

/** A seller's active flag, its row locked for the change (null: no such seller). */
export async function lockCustomerActive(tx: Executor, customerId: string) {
  const [row] = await tx
    .select({ is_active: customers.is_active })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('update');
  return row ?? null;
}

export async function updateCustomerActive(tx: Executor, customerId: string, isActive: boolean) {
  await tx.update(customers).set({ is_active: isActive, updated_at: sql`now()` }).where(eq(customers.id, customerId));
}

export async function userIdsOfCustomer(tx: Executor, customerId: string): Promise<string[]> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.customer_id, customerId));
  return rows.map((r) => r.id);
}

/** One of a seller's users with its company name, the user row locked (null: not this seller's user). */
export async function lockUserOfCustomer(tx: Executor, customerId: string, userId: string) {
  const [row] = await tx
    .select({ id: users.id, name: users.name, email: users.email, language: users.language, company: customers.name })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customer_id))
    .where(and(eq(users.id, userId), eq(users.customer_id, customerId)))
    .for('update', { of: users });
  return row ?? null;
}

/** A password set for the user by someone else: the user must change it at the next login. */
export async function setPasswordToChange(tx: Executor, userId: string, passwordHash: string) {
  await tx
    .update(users)
    .set({
      password_hash: passwordHash,
      password_changed_at: sql`now()`,
      updated_at: sql`now()`,
      must_change_password: true,
    })
    .where(eq(users.id, userId));
}

/** A read model for other modules: the seller's customers row (company profile, print headers), or undefined. */
export async function findCustomer(ex: Executor, customerId: string) {
  const [row] = await ex.select().from(customers).where(eq(customers.id, customerId));
  return row;
}

/** A read model for other modules: the seller's company name ('' when the seller does not exist). */
export async function customerName(ex: Executor, customerId: string): Promise<string> {
  const [row] = await ex.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId));
  return row?.name ?? '';
}

/** A read model for other modules: the seller's company name, phone and invoice address (print headers, order defaults). */
export async function companyContact(ex: Executor, customerId: string) {
  const [row] = await ex
    .select({ name: customers.name, phone: customers.phone, address: customers.invoice_address })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row;
}

/** The company module's write on its fields of the customers row (name, tax id, invoice, contact). */
export async function updateCustomer(tx: Executor, customerId: string, patch: Partial<typeof customers.$inferInsert>) {
  const [row] = await tx.update(customers).set(patch).where(eq(customers.id, customerId)).returning();
  return row;
}

export type TCustomerRow = typeof customers.$inferSelect;
