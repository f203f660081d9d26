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

/** A key left alone this long starts over (its count and the length of its next lock). */
const QUIET_HOURS = 24;

/**
 * Count one attempt on `key` before it is checked (one atomic upsert), so parallel attempts each take a number and
 * none slips past a lock that the earlier ones are about to set. When a lock has run out, the count stands at
 * `max - 1`: one guess more, and a wrong one locks the key again (for twice as long). A key left alone for a day
 * starts over.
 */
export async function reserveAttempt(
  tx: Executor,
  key: string,
  max: number,
): Promise<{ failures: number; locked_until: Date | null }> {
  const [row] = await queryRows<{ failures: number; locked_until: string | Date | null }>(
    tx,
    sql`
    insert into login_attempts (key, failures) values (${key}, 1)
    on conflict (key) do update set
      failures = case
        when login_attempts.updated_at < now() - make_interval(hours => ${QUIET_HOURS})
          and (login_attempts.locked_until is null or login_attempts.locked_until <= now()) then 1
        when login_attempts.locked_until <= now() then ${max}::int
        else login_attempts.failures + 1 end,
      locks = case
        when login_attempts.updated_at < now() - make_interval(hours => ${QUIET_HOURS})
          and (login_attempts.locked_until is null or login_attempts.locked_until <= now()) then 0
        else login_attempts.locks end,
      locked_until = case when login_attempts.locked_until <= now() then null else login_attempts.locked_until end,
      updated_at = now()
    returning failures, locked_until`,
  );
  return { failures: Number(row!.failures), locked_until: row!.locked_until ? new Date(row!.locked_until) : null };
}

/**
 * Lock `key` (a lock already running is kept): the first lock lasts one minute, each next one twice the last, at most
 * `maxMinutes`. Returns its end.
 */
export async function lockAttempts(tx: Executor, key: string, maxMinutes: number): Promise<Date> {
  const [row] = await queryRows<{ locked_until: string | Date }>(
    tx,
    sql`
    insert into login_attempts (key, failures, locks, locked_until) values (${key}, 0, 1, now() + interval '1 minute')
    on conflict (key) do update set
      locked_until = case when login_attempts.locked_until > now() then login_attempts.locked_until
        else now() + make_interval(mins => least(${maxMinutes}::int, power(2, least(login_attempts.locks, 20))::int)) end,
      locks = case when login_attempts.locked_until > now() then login_attempts.locks else login_attempts.locks + 1 end,
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

/** A wrong password for an existing account: counted on the account, told to its user at the next sign-in. */
export async function noteFailedLogin(tx: Executor, userId: string): Promise<void> {
  await tx.execute(
    sql`update users set failed_logins = failed_logins + 1, failed_login_at = now() where id = ${userId}`,
  );
}

/** At a sign-in: the wrong passwords given since the last one (count and time of the last), and start over. */
export async function takeFailedLogins(tx: Executor, userId: string): Promise<{ count: number; last_at: Date } | null> {
  const [row] = await queryRows<{ count: number; last_at: string | Date | null }>(
    tx,
    sql`
    with old as (select id, failed_logins, failed_login_at from users where id = ${userId} for update)
    update users set failed_logins = 0, failed_login_at = null from old
    where users.id = old.id and old.failed_logins > 0
    returning old.failed_logins as count, old.failed_login_at as last_at`,
  );
  if (!row?.last_at) return null;
  return { count: Number(row.count), last_at: new Date(row.last_at) };
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
