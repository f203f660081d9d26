import swagger from '@fastify/swagger';
import * as contracts from '@wms/contracts';
import { ERROR_CODES, type TRouteContract } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';

/** A route of the contracts with where it is declared: `table` is the export (`inboundRoutes`), `name` its key. */
export type TContractRoute = TRouteContract & {
  table: string;
  name: string;
};

function isRoute(value: unknown): value is TRouteContract {
  const r = value as Partial<TRouteContract> | null;
  return !!r && typeof r.path === 'string' && typeof r.method === 'string' && typeof r.auth === 'string';
}

/** Every route of every route table `@wms/contracts` exports (a new table is picked up without being listed). */
export function contractRoutes(): TContractRoute[] {
  const out: TContractRoute[] = [];
  for (const [table, value] of Object.entries(contracts)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [name, r] of Object.entries(value as Record<string, unknown>)) {
      if (isRoute(r)) out.push({ ...r, table, name });
    }
  }
  return out;
}

/** `/api/entry/:id/` → `/api/entry/{id}/` (OpenAPI path templating). */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** `inboundRoutes.confirmReceipt`: the operationId of a contract route (unique: table and key). */
export function operationIdOf(r: { table: string; name: string }): string {
  return `${r.table}.${r.name}`;
}

const AUTH_WORDS: Record<TRouteContract['auth'], string> = {
  public: 'No login.',
  customer: "A seller's user (access token of /api/login/).",
  employee: "The provider's staff (access token of /api/login/ with an EMPLOYEE account).",
  user: "Any logged-in user: a seller's user or an employee (access token of /api/login/).",
  member: 'A store member (access token of /api/member-login/).',
  apikey:
    "A seller's own system: the partner API key of /module-api-setup in `X-API-Key` (or `Authorization: Bearer`). " +
    'Rate-limited per key (429 with Retry-After).',
};

/** The error body of every failure (docs/ARCHITECTURE.md "How a request travels", 4). */
const ERROR_SCHEMA: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string', description: "In the caller's Accept-Language (zh-TW, ja, en)." },
        params: { type: 'object', additionalProperties: true },
      },
    },
  },
};

/** 'confirmReceipt' → 'Confirm receipt'. */
function summaryOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Register @fastify/swagger before the routes: it collects every route as Fastify registers it, and the document
 * (`app.swagger()`, cached after the first call) is built from the routes' zod schemas — the contracts — by
 * fastify-type-provider-zod's transform (JSON Schema 2020-12, as OpenAPI 3.1 wants). Each operation is named and
 * secured from its contract (`auth`); a route that no contract declares is left out.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  const byRoute = new Map(contractRoutes().map((r) => [`${r.method} ${r.path}`, r]));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'WMS API',
        version,
        description:
          'Generated from the zod contracts of packages/contracts. Lists take `?page=&page_size=` (10, 25, 50, 100) ' +
          '`&search=&ordering=` and answer `{ count, results }`; errors answer `{ error: { code, message, params } }` ' +
          'with the message in the Accept-Language (zh-TW, ja, en).',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token (15 minutes) from /api/login/ or /api/member-login/; `x-auth` says whose.',
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'Partner API key (/module-api-setup): shown once when the API is enabled.',
          },
        },
        schemas: { Error: ERROR_SCHEMA },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const method = Array.isArray(input.route.method) ? input.route.method[0] : input.route.method;
      const contract = byRoute.get(`${method} ${input.url}`);
      if (!contract) return { ...out, schema: { ...out.schema, hide: true } };
      const response = out.schema.response as Record<string, unknown> | undefined;
      return {
        ...out,
        schema: {
          ...out.schema,
          operationId: operationIdOf(contract),
          summary: summaryOf(contract.name),
          description: AUTH_WORDS[contract.auth],
          tags: [contract.table.replace(/Routes$/, '')],
          security: contract.auth === 'public' ? [] : contract.auth === 'apikey' ? [{ apiKey: [] }] : [{ bearer: [] }],
          'x-auth': contract.auth,
          ...(contract.perm ? { 'x-permission': contract.perm } : {}),
          response: {
            ...response,
            default: {
              description: 'Error',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          },
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
}
