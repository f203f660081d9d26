import type { TIntegrationAttempt, ZIntegrationAttemptQuery } from '@wms/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import * as repo from './integrations.repository';

/** The attempt log of the caller's outgoing calls (the screens of the partner API, Shopee and billing show it). */
export async function listAttempts(
  db: Db,
  actor: TActor,
  query: z.infer<typeof ZIntegrationAttemptQuery>,
): Promise<{ count: number; results: TIntegrationAttempt[] }> {
  const { rows, count } = await repo.listAttempts(db, tenantOf(actor), {
    provider: query.provider,
    reference: query.reference,
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return {
    count,
    results: rows.map((r) => ({
      id: r.id,
      provider: r.provider,
      operation: r.operation,
      reference: r.reference,
      attempt: r.attempt,
      method: r.method,
      url: r.url,
      request_headers: (r.request_headers as Record<string, string> | null) ?? null,
      request_body: r.request_body,
      status: r.status,
      response_body: r.response_body,
      error: r.error,
      duration_ms: r.duration_ms,
      created_at: r.created_at.toISOString(),
    })),
  };
}
