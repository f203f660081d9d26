import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { customers, login_attempts, refresh_tokens, store_members, stores, users } from '../../db/schema';

export type TUserRow = typeof users.$inferSelect;
export type TMemberRow = typeof store_members.$inferSelect;

/**
 * A user with `is_active` false also when its seller company is deactivated (/crm/customer): login, OTP and token
 * refresh all read users through these two functions.
 */
async function findUserWhere(tx: Executor, where: ReturnType<typeof eq>): Promise<TUserRow | undefined> {
  const [row] = await tx
    .select({ user: users, company_active: customers.is_active })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customer_id))
    .where(where);
  if (!row) return undefined;
  return { ...row.user, is_active: row.user.is_active && row.company_active !== false };
}

export async function findUserByEmail(tx: Executor, email: string): Promise<TUserRow | undefined> {
  return findUserWhere(tx, eq(users.email, email.toLowerCase()));
}

export async function findUserById(tx: Executor, id: string): Promise<TUserRow | undefined> {
  return findUserWhere(tx, eq(users.id, id));
}

export async function findCustomerById(tx: Executor, id: string) {
  const [row] = await tx.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.id, id));
  return row;
}

/**
 * Count one attempt on `key` before it is checked (one atomic upsert), so parallel attempts each take a number and
 * none slips past a lock that the earlier ones are about to set. An expired lock restarts the count.
 */
export async function reserveAttempt(
  tx: Executor,
  key: string,
): Promise<{ failures: number; locked_until: Date | null }> {
  const [row] = await queryRows<{ failures: number; locked_until: string | Date | null }>(
    tx,
    sql`
    insert into login_attempts (key, failures) values (${key}, 1)
    on conflict (key) do update set
      failures = case when login_attempts.locked_until <= now() then 1 else login_attempts.failures + 1 end,
      locked_until = case when login_attempts.locked_until <= now() then null else login_attempts.locked_until end,
      updated_at = now()
    returning failures, locked_until`,
  );
  return { failures: Number(row!.failures), locked_until: row!.locked_until ? new Date(row!.locked_until) : null };
}

/** Lock `key` for `lockMinutes` (a lock already running is kept); returns its end. */
export async function lockAttempts(tx: Executor, key: string, lockMinutes: number): Promise<Date> {
  const [row] = await queryRows<{ locked_until: string | Date }>(
    tx,
    sql`
    insert into login_attempts (key, failures, locked_until) values (${key}, 0, now() + make_interval(mins => ${lockMinutes}))
    on conflict (key) do update set
      locked_until = case when login_attempts.locked_until > now() then login_attempts.locked_until
        else excluded.locked_until end,
      updated_at = now()
    returning locked_until`,
  );
  return new Date(row!.locked_until);
}

/** A successful attempt clears the count unless a lock was set meanwhile; returns that lock's end, or null. */
export async function forgiveAttempts(tx: Executor, key: string): Promise<Date | null> {
  await tx.execute(
    sql`delete from login_attempts where key = ${key} and (locked_until is null or locked_until <= now())`,
  );
  const [row] = await tx.select().from(login_attempts).where(eq(login_attempts.key, key));
  return row?.locked_until && row.locked_until.getTime() > Date.now() ? row.locked_until : null;
}

/** Give back a reserved attempt that was not a guess (the request was refused for another reason). */
export async function releaseAttempt(tx: Executor, key: string): Promise<void> {
  await tx.execute(sql`update login_attempts set failures = greatest(failures - 1, 0) where key = ${key}`);
}

/** /users shows when each user last logged in. */
export async function touchLastLogin(tx: Executor, userId: string): Promise<void> {
  await tx.update(users).set({ last_login_at: new Date() }).where(eq(users.id, userId));
}

export async function setOtpPending(tx: Executor, userId: string, until: Date | null): Promise<void> {
  await tx.update(users).set({ otp_pending_until: until }).where(eq(users.id, userId));
}

/** Record the TOTP step as used; zero rows means the step was already used (a replay). */
export async function consumeTotpStep(tx: Executor, userId: string, step: number): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ totp_last_step: step, otp_pending_until: null })
    .where(and(eq(users.id, userId), or(isNull(users.totp_last_step), lt(users.totp_last_step, step))))
    .returning({ id: users.id });
  return rows.length === 1;
}

export async function insertRefreshToken(
  tx: Executor,
  row: { id: string; family_id: string; subject_type: 'user' | 'member'; subject_id: string; expires_at: Date },
): Promise<void> {
  await tx.insert(refresh_tokens).values(row);
}

export async function lockRefreshToken(tx: Executor, id: string) {
  const rows = await tx.select().from(refresh_tokens).where(eq(refresh_tokens.id, id)).for('update');
  return rows[0];
}

export async function markRefreshUsed(tx: Executor, id: string): Promise<void> {
  await tx.update(refresh_tokens).set({ used_at: new Date() }).where(eq(refresh_tokens.id, id));
}

export async function revokeFamily(tx: Executor, familyId: string): Promise<void> {
  await tx
    .update(refresh_tokens)
    .set({ revoked_at: new Date() })
    .where(and(eq(refresh_tokens.family_id, familyId), isNull(refresh_tokens.revoked_at)));
}

export async function revokeAllForSubject(
  tx: Executor,
  subjectType: 'user' | 'member',
  subjectId: string,
): Promise<void> {
  await tx
    .update(refresh_tokens)
    .set({ revoked_at: new Date() })
    .where(
      and(
        eq(refresh_tokens.subject_type, subjectType),
        eq(refresh_tokens.subject_id, subjectId),
        isNull(refresh_tokens.revoked_at),
      ),
    );
}

/** The store a member logs into: `corp` is the store's short URL (shown as "corporation" on the login page). */
export async function findStoreByShortUrl(tx: Executor, shortUrl: string) {
  const [row] = await tx.select().from(stores).where(eq(stores.short_url, shortUrl.toLowerCase()));
  return row;
}

export async function findStoreById(tx: Executor, id: string) {
  const [row] = await tx.select().from(stores).where(eq(stores.id, id));
  return row;
}

export async function findMember(tx: Executor, storeId: string, email: string): Promise<TMemberRow | undefined> {
  const [row] = await tx
    .select()
    .from(store_members)
    .where(and(eq(store_members.store_id, storeId), eq(store_members.email, email.toLowerCase())));
  return row;
}

export async function findMemberById(tx: Executor, id: string): Promise<TMemberRow | undefined> {
  const [row] = await tx.select().from(store_members).where(eq(store_members.id, id));
  return row;
}
