// The published API, recorded: docs/api/openapi.json (every contract route, as GET /api/openapi.json serves it) and
// docs/api/partner-api.json (the partner API, /api/v1/, with its own version). `npm run api:doc` writes both from the
// app; the test platform/__tests__/openapi.recorded.int.test.ts fails when they differ from what the app generates,
// and when the partner API changed in a breaking way without a new major PARTNER_API_VERSION.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PARTNER_API_VERSION } from '@wms/contracts';
import { apiCompare } from 'api-smart-diff';
import type { FastifyInstance } from 'fastify';

export const RECORDED_DIR = path.resolve(import.meta.dirname, '../../../../docs/api');
export const OPENAPI_FILE = path.join(RECORDED_DIR, 'openapi.json');
export const PARTNER_FILE = path.join(RECORDED_DIR, 'partner-api.json');
export const REGENERATE = 'npm run api:doc';
export const PARTNER_PREFIX = '/api/v1/';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document as JSON
type TDoc = Record<string, any>;

/** The partner API's part of the document: its paths, the schemes and schemas they use, its own version. */
export function partnerPart(doc: TDoc, version: string = PARTNER_API_VERSION): TDoc {
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([p]) => p.startsWith(PARTNER_PREFIX)));
  return {
    openapi: doc.openapi,
    info: {
      title: 'WMS partner API',
      version,
      description:
        "A seller's own system calls these with the partner API key (X-API-Key). Errors answer " +
        '`{ error: { code, message, params } }`; a breaking change comes with a new major version. New error codes ' +
        'may appear in any version: handle a code you do not know by its HTTP status.',
    },
    paths,
    components: {
      securitySchemes: { apiKey: doc.components?.securitySchemes?.apiKey },
      schemas: doc.components?.schemas ?? {},
    },
  };
}

/**
 * The document in a canonical form: a parameter's `required: false` (OpenAPI's default) is left out. @fastify/swagger
 * writes it or not for a query schema two routes share depending on the order it converted them in (it deletes the
 * flag from the shared schema), which differs between module loaders (tsx, vitest): the same API either way.
 */
function canonical(doc: TDoc): TDoc {
  for (const item of Object.values(doc.paths ?? {}) as TDoc[])
    for (const op of Object.values(item))
      for (const param of (op as TDoc)?.parameters ?? []) if (param.required === false) delete param.required;
  return doc;
}

/** The documents as the app generates them now (JSON round trip: what a file holds), in canonical form. */
export function generatedDocuments(app: FastifyInstance): { openapi: TDoc; partner: TDoc } {
  const openapi = canonical(JSON.parse(JSON.stringify(app.swagger())) as TDoc);
  return { openapi, partner: partnerPart(openapi) };
}

export function readRecorded(): { openapi: TDoc | null; partner: TDoc | null } {
  const read = (file: string) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as TDoc;
    } catch {
      return null;
    }
  };
  return { openapi: read(OPENAPI_FILE), partner: read(PARTNER_FILE) };
}

/** Where two JSON values differ (JSON pointers), at most `limit` of them. */
export function jsonDifferences(a: unknown, b: unknown, at = '', out: string[] = [], limit = 10): string[] {
  if (out.length >= limit) return out;
  if (a === b) return out;
  const isObj = (v: unknown) => v !== null && typeof v === 'object';
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b)) {
    out.push(at || '/');
    return out;
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  for (const k of new Set([...ka, ...kb])) {
    const key = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!(k in (a as object)) || !(k in (b as object))) {
      if (out.length < limit) out.push(key);
    } else jsonDifferences((a as TDoc)[k], (b as TDoc)[k], key, out, limit);
    if (out.length >= limit) break;
  }
  return out;
}

const major = (v: unknown) => Number(String(v ?? '0').split('.')[0]);

/** A value added to the error codes every error answer lists (`error.code`'s enum). */
const isNewErrorCode = (d: { action: string; path: Array<string | number> }) =>
  d.action === 'add' && /\/properties\/error\/properties\/code\/enum\/\d+$/.test(d.path.join('/'));

/**
 * The partner API's breaking changes from `recorded` to `generated` (api-smart-diff's classification), except a new
 * error code: api-smart-diff counts any value added to a response enum as breaking, but the error codes are an open
 * list by contract (the partner document says a client handles a code it does not know by the HTTP status), and a
 * new code is how a new refusal is named.
 */
export function breakingChanges(recorded: TDoc, generated: TDoc): string[] {
  const { diffs } = apiCompare(recorded, generated);
  return diffs
    .filter((d) => d.type === 'breaking' && !isNewErrorCode(d))
    .map((d) => `${d.description ?? d.action} (${d.path.join('/')})`);
}

/**
 * What is wrong with the recorded documents against the generated ones: each problem a sentence. Empty when the
 * record is up to date. A breaking change of the partner API is reported unless the generated major version is above
 * the recorded one.
 */
export function checkRecorded(
  generated: { openapi: TDoc; partner: TDoc },
  recorded: { openapi: TDoc | null; partner: TDoc | null },
): { problems: string[]; breaking: string[] } {
  const problems: string[] = [];
  let breaking: string[] = [];
  if (!recorded.openapi)
    problems.push(`${path.relative(process.cwd(), OPENAPI_FILE)} is missing: run \`${REGENERATE}\``);
  else {
    const diff = jsonDifferences(recorded.openapi, generated.openapi);
    if (diff.length)
      problems.push(
        `the API the app generates differs from docs/api/openapi.json at ${diff.join(', ')}: run \`${REGENERATE}\` and commit docs/api`,
      );
  }
  if (!recorded.partner) problems.push(`docs/api/partner-api.json is missing: run \`${REGENERATE}\``);
  else {
    const diff = jsonDifferences(recorded.partner, generated.partner);
    if (diff.length) {
      problems.push(
        `the partner API differs from docs/api/partner-api.json at ${diff.join(', ')}: run \`${REGENERATE}\` and commit docs/api`,
      );
      breaking = breakingChanges(recorded.partner, generated.partner);
      if (breaking.length && major(generated.partner.info?.version) <= major(recorded.partner.info?.version))
        problems.push(
          `breaking change to the partner API ${PARTNER_PREFIX} without a new major version (PARTNER_API_VERSION ` +
            `${generated.partner.info?.version}, recorded ${recorded.partner.info?.version}; partners' integrations ` +
            `would break): ${breaking.join('; ')}`,
        );
    }
  }
  return { problems, breaking };
}

/** `npm run api:doc`: write the documents; a breaking partner change without a new major is refused. */
async function main(): Promise<void> {
  const { createTestContext } = await import('./harness');
  const ctx = await createTestContext();
  try {
    const generated = generatedDocuments(ctx.app);
    const recorded = readRecorded();
    if (recorded.partner) {
      const breaking = breakingChanges(recorded.partner, generated.partner);
      if (breaking.length && major(generated.partner.info.version) <= major(recorded.partner.info.version)) {
        console.error(
          `Refused: breaking change to the partner API ${PARTNER_PREFIX} (raise the major of PARTNER_API_VERSION in ` +
            `packages/contracts/src/partner-api.ts, or keep the API compatible):\n  ${breaking.join('\n  ')}`,
        );
        process.exitCode = 1;
        return;
      }
    }
    writeFileSync(OPENAPI_FILE, `${JSON.stringify(generated.openapi, null, 1)}\n`);
    writeFileSync(PARTNER_FILE, `${JSON.stringify(generated.partner, null, 1)}\n`);
    console.log(
      `wrote ${path.relative(process.cwd(), OPENAPI_FILE)} and ${path.relative(process.cwd(), PARTNER_FILE)}`,
    );
  } finally {
    await ctx.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
