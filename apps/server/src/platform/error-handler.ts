import { ERROR_CATALOGUE, errorMessage, pickLanguage, type TErrorCode } from '@wms/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors';
import { MAX_INPUT_DEPTH, pendingRefusal } from './http';

function fieldOf(instancePath: string, params: Record<string, unknown>): string {
  const parts = instancePath.split('/').filter(Boolean);
  // Unknown keys (strict objects) name themselves in params.keys.
  const keys = params.keys;
  if (Array.isArray(keys) && keys.length > 0) parts.push(String(keys[0]));
  return parts.join('.') || 'body';
}

/** Map a zod issue onto our catalogue: missing/empty → REQUIRED_FIELD, short password → PASSWORD_TOO_SHORT, else INVALID_FIELD. */
function mapValidation(v: {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}): {
  code: TErrorCode;
  field: string;
} {
  const field = fieldOf(v.instancePath, v.params);
  const leaf = field.split('.').pop() ?? field;
  if (v.keyword === 'invalid_type' && /received undefined|received null/.test(v.message ?? '')) {
    return { code: 'REQUIRED_FIELD', field };
  }
  if (v.keyword === 'too_small' && v.params.origin === 'string') {
    if (/password$/.test(leaf) && Number(v.params.minimum) > 1) return { code: 'PASSWORD_TOO_SHORT', field };
    if (Number(v.params.minimum) === 1) return { code: 'REQUIRED_FIELD', field };
  }
  return { code: 'INVALID_FIELD', field };
}

/** One error shape for every failure; 5xx bodies never show internals. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown: FastifyError, req, reply) => {
    // A caller whose grants were still to be checked (a `first-statement` route) is answered by their refusal first.
    const err = ((await pendingRefusal(req)) as FastifyError | null) ?? thrown;
    const lang = pickLanguage(req.headers['accept-language']);
    const send = (code: TErrorCode, params: Record<string, unknown> = {}, status?: number) =>
      reply
        .status(status ?? ERROR_CATALOGUE[code].status)
        .send({ error: { code, message: errorMessage(code, lang, params), params } });

    if (err instanceof AppError) {
      if (err.code === 'RATE_LIMITED' && typeof err.params.retry_after === 'number') {
        reply.header('retry-after', String(err.params.retry_after));
      }
      return send(err.code, err.params, err.status);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]!;
      const { code, field } = mapValidation(first as unknown as Parameters<typeof mapValidation>[0]);
      return send(code, { field, issues: err.validation.length });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send('BODY_TOO_LARGE');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send('INVALID_FIELD', { field: 'body' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send('INVALID_FIELD', { field: 'body' }, 415);
    }
    // A JSON parser that gives up on the depth of a body (V8's is iterative today; others may not be): the input, 400.
    if (err instanceof RangeError && err.statusCode === 400) return send('BODY_TOO_DEEP', { max: MAX_INPUT_DEPTH });
    if (err.statusCode === 429) return send('RATE_LIMITED');
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
      return send('INVALID_FIELD', { field: 'body' }, err.statusCode);
    req.log.error({ err }, 'unhandled error');
    return send('INTERNAL_ERROR');
  });
}
