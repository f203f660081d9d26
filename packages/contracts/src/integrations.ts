import { z } from 'zod';
import { PAGE_SIZES, ZPage } from './common';
import { defineRoutes } from './routes';

/** One outgoing call to an outside system as recorded (secrets masked, bodies cut at 16 kB). */
export const ZIntegrationAttempt = z.object({
  id: z.number().int(),
  provider: z.string(),
  operation: z.string(),
  reference: z.string().nullable(),
  attempt: z.number().int(),
  method: z.string(),
  url: z.string(),
  request_headers: z.record(z.string(), z.string()).nullable(),
  request_body: z.string().nullable(),
  status: z.number().int().nullable(),
  response_body: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  created_at: z.string(),
});
export type TIntegrationAttempt = z.infer<typeof ZIntegrationAttempt>;

export const ZIntegrationAttemptQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(25),
  provider: z.string().trim().max(50).optional(),
  reference: z.string().trim().max(100).optional(),
});

export const integrationRoutes = defineRoutes({
  /** The seller's outgoing calls (callbacks, gateways, carriers), newest first: what was sent and answered. */
  listIntegrationAttempts: {
    method: 'GET',
    path: '/api/integration-attempts/',
    auth: 'customer',
    perm: 'api:read',
    query: ZIntegrationAttemptQuery,
    response: ZPage(ZIntegrationAttempt),
    tenantScoped: true,
  },
});
