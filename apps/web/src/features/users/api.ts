import { userRoutes } from '@wms/contracts';
import { readsOf } from '../../shared/api/route-query';

/** What a write of the users screen refreshes: every read of the users table (the list, the audit trail). */
export const userReads = readsOf(userRoutes);
