import { retention_settings } from '../../../db/schema';
import type { TWorldBuilder } from '../../../test/world';

/** The retention setting of a seller for the tenant isolation sweep. */
export const retentionWorld: TWorldBuilder = async (ctx, s) => {
  await ctx.deps.database.db
    .insert(retention_settings)
    .values({ customer_id: s.customerId, schedule_enabled: false, months: 12, kinds: ['outbound_orders'] });
};
