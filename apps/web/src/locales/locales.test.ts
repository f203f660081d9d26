import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, STOCK_REASON_LABELS } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import { MANUAL_PAGES } from '../routes/route-table';

const dir = import.meta.dirname;

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

function leaf(obj: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

const load = (lng: string, ns: string) => JSON.parse(readFileSync(path.join(dir, lng, `${ns}.json`), 'utf8'));

describe('locales', () => {
  const namespaces = new Set(
    LANGUAGES.flatMap((lng) => readdirSync(path.join(dir, lng)).filter((f) => f.endsWith('.json'))),
  );

  it('every language has every namespace file', () => {
    for (const lng of LANGUAGES) {
      const files = readdirSync(path.join(dir, lng));
      expect(
        [...namespaces].filter((ns) => !files.includes(ns)),
        `${lng} lacks namespace files`,
      ).toEqual([]);
    }
  });

  for (const file of namespaces) {
    const ns = file.replace(/\.json$/, '');
    it(`${ns}: every language has every key another has, with the same placeholders, none empty`, () => {
      const data = Object.fromEntries(LANGUAGES.map((lng) => [lng, load(lng, ns)]));
      const all = new Set(LANGUAGES.flatMap((lng) => keys(data[lng])));
      for (const lng of LANGUAGES) {
        const own = new Set(keys(data[lng]));
        expect(
          [...all].filter((k) => !own.has(k)),
          `${lng}/${ns}.json lacks keys`,
        ).toEqual([]);
        for (const k of own) {
          const value = leaf(data[lng], k);
          expect(typeof value === 'string' && value.trim() !== '', `${lng}/${ns}.json ${k} is empty`).toBe(true);
          expect(placeholders(value as string), `${lng}/${ns}.json ${k} placeholders`).toEqual(
            placeholders(leaf(data['zh-TW'], k) as string),
          );
        }
      }
    });
  }

  // Issue #22, finding 6: one name per thing across screens.
  it('the product type reads the same on /product, /product-stock and the orders', () => {
    for (const lng of LANGUAGES) {
      const names = [
        leaf(load(lng, 'catalog'), 'type.single'),
        leaf(load(lng, 'stock'), 'type.single'),
        leaf(load(lng, 'outbound'), 'productType.single'),
      ];
      expect(new Set(names).size, `${lng}: ${names.join(' / ')}`).toBe(1);
    }
  });

  it('every manual page has its title (the contents, the page and the flow chart name it by `pages.<page>`)', () => {
    for (const lng of LANGUAGES) {
      const manual = load(lng, 'manual');
      const missing = MANUAL_PAGES.filter((p) => typeof leaf(manual, `pages.${p || 'index'}`) !== 'string');
      expect(missing, lng).toEqual([]);
    }
  });

  it('the menu names /deliver-opser by what its tab calls the collection batches', () => {
    for (const lng of LANGUAGES) {
      const menu = leaf(load(lng, 'nav'), 'screens.deliver-opser') as string;
      const tab = leaf(load(lng, 'outbound'), 'opser.tabBatches') as string;
      expect(menu, lng).toContain(tab);
    }
  });

  it('stock reasons read the same on the stock-log screen and in its export (contracts)', () => {
    for (const lng of LANGUAGES) {
      const screen = leaf(load(lng, 'stock'), 'reason');
      const exported = Object.fromEntries(Object.entries(STOCK_REASON_LABELS).map(([k, v]) => [k, v[lng]]));
      expect(screen, lng).toEqual(exported);
    }
  });
});
