import { partnerApiRoutes, ZOrderDetail } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TTestContext } from '../../test/harness';
import {
  checkRecorded,
  generatedDocuments,
  PARTNER_PREFIX,
  partnerPart,
  REGENERATE,
  readRecorded,
} from '../../test/openapi-record';

/**
 * The published API is recorded in docs/api (openapi.json, partner-api.json): the app's generated document must be
 * the recorded one, and the partner API (/api/v1/) must not break without a new major version.
 */
let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents as JSON
type TDoc = Record<string, any>;
const ORDER = `${PARTNER_PREFIX}orders/{code}/`;
const responseOf = (doc: TDoc, p: string, method: string) =>
  doc.paths[p][method].responses['200'].content['application/json'].schema as {
    properties: Record<string, unknown>;
    required?: string[];
  };

describe('the recorded API (docs/api)', () => {
  it('is what the app generates now', () => {
    const recorded = readRecorded();
    const { problems } = checkRecorded(generatedDocuments(ctx.app), recorded);
    expect(problems, problems.join('\n')).toEqual([]);
    // The partner part is the /api/v1/ routes of the whole document, and holds every one of them.
    expect(Object.keys(recorded.partner!.paths).sort()).toEqual(
      Object.values(partnerApiRoutes)
        .map((r) => r.path.replace(/:(\w+)/g, '{$1}'))
        .filter((p, i, all) => all.indexOf(p) === i)
        .sort(),
    );
  });

  it("fails when a contract's response field changes and docs/api is not regenerated, naming the breaking change", async () => {
    // The contract of GET /api/v1/orders/{code}/ loses a response field; an app built on it generates the document.
    const route = partnerApiRoutes.apiGetOrder as { response: unknown };
    const original = route.response;
    route.response = ZOrderDetail.omit({ packaging: true });
    let changed: TTestContext | undefined;
    try {
      changed = await createTestContext();
      const generated = generatedDocuments(changed.app);
      expect(responseOf(generated.openapi, ORDER, 'get').properties).not.toHaveProperty('packaging');
      const { problems, breaking } = checkRecorded(generated, readRecorded());
      expect(problems.join('\n')).toContain(
        `differs from docs/api/openapi.json at /paths/${ORDER.replace(/\//g, '~1')}`,
      );
      expect(problems.join('\n')).toContain(REGENERATE);
      expect(breaking.join('\n')).toMatch(/Removed.*property `packaging`/);
      expect(problems.join('\n')).toContain('breaking change to the partner API /api/v1/ without a new major version');
    } finally {
      route.response = original;
      await changed?.close();
    }
  });

  it('tells a narrowed request field and a removed path as breaking, an added optional field as compatible', () => {
    const generated = generatedDocuments(ctx.app);
    const recorded = { openapi: generated.openapi, partner: generated.partner };

    const narrowed = structuredClone(generated.partner);
    const body = narrowed.paths[`${PARTNER_PREFIX}orders/`].post.requestBody.content['application/json'].schema;
    body.properties.order_number.maxLength = 10;
    delete narrowed.paths[`${PARTNER_PREFIX}stock/`];
    const a = checkRecorded({ openapi: generated.openapi, partner: narrowed }, recorded);
    expect(a.breaking.join('\n')).toMatch(/maxLength validator of `order_number`/);
    expect(a.breaking.join('\n')).toMatch(/Removed\] operation GET \/api\/v1\/stock\//);
    expect(a.problems.some((p) => p.startsWith('breaking change'))).toBe(true);

    const added = structuredClone(generated.partner);
    responseOf(added, ORDER, 'get').properties.note_for_partner = { type: 'string' };
    const b = checkRecorded({ openapi: generated.openapi, partner: added }, recorded);
    expect(b.breaking).toEqual([]);
    // Still not recorded: the document differs (regenerate), but nothing breaks.
    expect(b.problems).toHaveLength(1);
    expect(b.problems[0]).toContain(REGENERATE);

    // A new error code, even in the middle of the alphabetical list, is compatible; a removed field is not.
    const coded = structuredClone(generated.partner);
    coded.components.schemas.Error.properties.error.properties.code.enum.splice(3, 0, 'A_NEW_REFUSAL');
    expect(checkRecorded({ openapi: generated.openapi, partner: coded }, recorded).breaking).toEqual([]);

    // A new major version lets the breaking change through (recorded once regenerated).
    const bumped = { ...narrowed, info: { ...narrowed.info, version: '2.0.0' } };
    const c = checkRecorded({ openapi: generated.openapi, partner: bumped }, recorded);
    expect(c.breaking.length).toBeGreaterThan(0);
    expect(c.problems.some((p) => p.startsWith('breaking change'))).toBe(false);
    expect(partnerPart(generated.openapi, '2.0.0').info.version).toBe('2.0.0');
  });
});
