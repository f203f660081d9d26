import { MANUAL_PAGES, type TManualPage } from '../routes/route-table';
import type { TDocLoader } from '../shared/markdown/localized';

/** Manual documents: manual/<lng>/<page>.md ('' is index.md). */
export const MANUAL_DOCS = import.meta.glob<string>('./*/*.md', { query: '?raw', import: 'default' }) as Record<
  string,
  TDocLoader
>;
export const MANUAL_BASE = '.';

export function manualFile(page: TManualPage): string {
  return page === '' ? 'index' : page;
}

export function manualHref(page: TManualPage): string {
  return page === '' ? '/user-manual' : `/user-manual/${page}`;
}

/** Pages whose document exists in no language yet (they show "being written"). */
export function unwrittenManualPages(docs: Record<string, unknown> = MANUAL_DOCS): TManualPage[] {
  return MANUAL_PAGES.filter((p) => !Object.keys(docs).some((f) => f.endsWith(`/${manualFile(p)}.md`)));
}

/** The table of contents: every sub-page of spec §2.5, grouped like the menu. */
export const MANUAL_TOC: Array<{ group: string; pages: TManualPage[] }> = [
  { group: 'start', pages: ['', 'flowchart', 'version', '2fa', 'handheld'] },
  { group: 'basic', pages: ['corporation', 'warehouse', 'ecommerce-channel', 'express-provider', 'package', 'users'] },
  { group: 'product', pages: ['product', 'product-update', 'product-print'] },
  { group: 'inbound', pages: ['entry', 'entry-confirm', 'entry-quick', 'entry-export', 'entry-cnt'] },
  { group: 'return', pages: ['return', 'return-confirm', 'return-export', 'return-cnt'] },
  {
    group: 'order',
    pages: [
      'deliver',
      'deliver-operation',
      'deliver-opser',
      'deliver-cnt',
      'deliver-export',
      'deliver-imei',
      'deliver-customize-form',
      'customize',
    ],
  },
  {
    group: 'stock',
    pages: ['product-stock', 'product-location', 'stock-transfer', 'stock-multi-transfer', 'stock-log', 'inventory'],
  },
  {
    group: 'analysis',
    pages: ['purchase-advice', 'deliver-statistics', 'location-stock', 'product-turnover', 'stock-age'],
  },
  { group: 'api', pages: ['api-setting', 'gd-api-setup', 'module-shopee-create'] },
  { group: 'store', pages: ['store-admin', 'store-member', 'billing'] },
];
