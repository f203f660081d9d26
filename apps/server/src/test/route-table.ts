import { randomUUID } from 'node:crypto';
import type { TRouteContract } from '@wms/contracts';
import { z } from 'zod';
import { contractRoutes, operationIdOf } from '../platform/openapi';

/** Every route of every route table the contracts export: the sweeps cover a new route without being edited. */
export function allRoutes(): Array<TRouteContract & { name: string }> {
  return contractRoutes().map((r) => ({ ...r, name: operationIdOf(r) }));
}

export function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

export type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  allOf?: TJsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
};

/** A small valid-looking instance of a JSON schema (required fields only), for calling write routes. */
function sample(s: TJsonSchema | undefined, depth = 0): unknown {
  if (!s || depth > 6) return null;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return sample(alt.find((a) => a.type !== 'null') ?? alt[0], depth + 1);
  if (s.allOf?.length) return Object.assign({}, ...s.allOf.map((a) => sample(a, depth + 1) as object));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const obj: Record<string, unknown> = {};
      for (const key of s.required ?? []) obj[key] = sample(s.properties?.[key], depth + 1);
      return obj;
    }
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => sample(s.items, depth + 1));
    case 'integer':
    case 'number':
      return Math.max(1, Math.ceil(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1)));
    case 'boolean':
      return true;
    case 'string': {
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'email') return 'x@example.tw';
      if (s.format === 'date') return '2026-11-22';
      if (s.format === 'date-time') return '2026-11-22T00:00:00.000Z';
      if (s.pattern && /\\d|\[0-9\]/.test(s.pattern)) return '1'.repeat(Math.max(1, s.minLength ?? 1));
      return 'x'.repeat(Math.max(1, Math.min(s.minLength ?? 1, s.maxLength ?? 1)));
    }
    default:
      return null;
  }
}

/** A small valid-looking instance of a JSON schema (required fields only). */
export const sampleOfJson = (s: TJsonSchema | undefined): unknown => sample(s);

/**
 * Every string leaf a payload of this schema can carry (optional ones included, arrays at index 0), each with its
 * dotted field name and a builder that puts a given text there inside an otherwise valid payload.
 */
export function stringLeaves(
  s: TJsonSchema | undefined,
  value: unknown,
  field = '',
  depth = 0,
): Array<{ field: string; build: (text: string) => unknown }> {
  if (!s || depth > 6) return [];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return stringLeaves(alt.find((a) => a.type !== 'null') ?? alt[0], value, field, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'string') return [{ field, build: (text) => text }];
  if (type === 'array') {
    const item = Array.isArray(value) && value.length > 0 ? value[0] : sample(s.items);
    return stringLeaves(s.items, item, field ? `${field}.0` : '0', depth + 1).map((leaf) => ({
      field: leaf.field,
      build: (text: string) => [leaf.build(text)],
    }));
  }
  if (type === 'object') {
    const obj = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    return Object.entries(s.properties ?? {}).flatMap(([key, prop]) =>
      stringLeaves(prop, key in obj ? obj[key] : sample(prop), field ? `${field}.${key}` : key, depth + 1).map(
        (leaf) => ({ field: leaf.field, build: (text: string) => ({ ...obj, [key]: leaf.build(text) }) }),
      ),
    );
  }
  return [];
}

export function sampleOf(schema: z.ZodType | undefined): unknown {
  if (!schema) return undefined;
  try {
    return sample(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as TJsonSchema);
  } catch {
    return {};
  }
}

/** The JSON schema of a route part (input side), or null when it cannot be expressed. */
export function jsonSchemaOf(schema: z.ZodType | undefined): TJsonSchema | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as TJsonSchema;
  } catch {
    return null;
  }
}
