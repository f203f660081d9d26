// Test-only seed, run by global-setup before the server starts (PGlite is single-process): the demo data the
// server would seed, plus one online store (closed) with one member that the redirect and auth specs log in as.
import { eq } from 'drizzle-orm';
import { createDeps } from '../apps/server/src/bootstrap';
import { loadConfig } from '../apps/server/src/config';
import { customers, store_members, stores, users } from '../apps/server/src/db/schema';
import { seedDemoData } from '../apps/server/src/modules/seed/seed.service';
import { hashPassword } from '../apps/server/src/platform/crypto';
import { DEMO } from './helpers/accounts';

const config = loadConfig();
const deps = await createDeps(config, { info: () => {} });
const db = deps.database.db;
await seedDemoData(db, config);
const [owner] = await db
  .select({ id: customers.id })
  .from(users)
  .innerJoin(customers, eq(users.customer_id, customers.id))
  .where(eq(users.email, DEMO.customer.email));
if (!owner) throw new Error('demo customer missing');
const [store] = await db
  .insert(stores)
  .values({ customer_id: owner.id, name: DEMO.store.name, short_url: DEMO.store.shortUrl, description: '' })
  .returning({ id: stores.id });
await db.insert(store_members).values({
  customer_id: owner.id,
  store_id: store!.id,
  email: DEMO.member.email,
  name: DEMO.member.name,
  password_hash: await hashPassword(DEMO.member.password),
});
await deps.database.close();
