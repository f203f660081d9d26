import { z } from 'zod';
import { ZId, ZIdParams, ZOk } from './common';
import { defineRoutes } from './routes';
import { ZCode, ZName } from './warehouse';

/** Storage-cell label sheets offered for product labels (spec §9: 45, 60 or 88 cells). */
export const PRODUCT_LABEL_CELLS = [45, 60, 88] as const;
export const LABEL_KINDS = ['product', 'location', 'packaging'] as const;
export const SYMBOLOGIES = ['auto', 'code128', 'ean13', 'qrcode'] as const;
export type TSymbology = (typeof SYMBOLOGIES)[number];

export const ZLabelSheet = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  /** A built-in sheet (read-only; copy it to adjust offsets for a printer). */
  builtin: z.boolean(),
  cells: z.number().int(),
  columns: z.number().int(),
  rows: z.number().int(),
  page_width_mm: z.number(),
  page_height_mm: z.number(),
  label_width_mm: z.number(),
  label_height_mm: z.number(),
  margin_left_mm: z.number(),
  margin_top_mm: z.number(),
  pitch_x_mm: z.number(),
  pitch_y_mm: z.number(),
  offset_x_mm: z.number(),
  offset_y_mm: z.number(),
});
export type TLabelSheet = z.infer<typeof ZLabelSheet>;

const mm = (max: number) => z.number().min(0).max(max);
export const ZCreateLabelSheet = z
  .strictObject({
    code: ZCode,
    name: ZName,
    columns: z.number().int().min(1).max(20),
    rows: z.number().int().min(1).max(40),
    page_width_mm: mm(500).optional(),
    page_height_mm: mm(500).optional(),
    label_width_mm: z.number().min(5).max(300),
    label_height_mm: z.number().min(5).max(300),
    margin_left_mm: mm(200),
    margin_top_mm: mm(200),
    pitch_x_mm: z.number().min(5).max(300),
    pitch_y_mm: z.number().min(5).max(300),
    offset_x_mm: z.number().min(-20).max(20).optional(),
    offset_y_mm: z.number().min(-20).max(20).optional(),
  })
  .refine((s) => s.pitch_x_mm >= s.label_width_mm, { path: ['pitch_x_mm'] })
  .refine((s) => s.pitch_y_mm >= s.label_height_mm, { path: ['pitch_y_mm'] });
export type TCreateLabelSheet = z.infer<typeof ZCreateLabelSheet>;
/** Own sheets only: the grid may change, and the printer offsets. */
export const ZUpdateLabelSheet = z
  .strictObject({
    name: ZName,
    offset_x_mm: z.number().min(-20).max(20),
    offset_y_mm: z.number().min(-20).max(20),
    margin_left_mm: mm(200),
    margin_top_mm: mm(200),
  })
  .partial();
export type TUpdateLabelSheet = z.infer<typeof ZUpdateLabelSheet>;

/** Where one cell of a sheet sits on the page, in mm from the top-left corner (printer offsets included). */
export interface TLabelCellBox {
  index: number;
  column: number;
  row: number;
  x_mm: number;
  y_mm: number;
  width_mm: number;
  height_mm: number;
}

/** The grid of a sheet: cells numbered row by row from the top-left, 0-based. */
export function labelCellBoxes(s: Omit<TLabelSheet, 'id' | 'code' | 'name' | 'builtin'>): TLabelCellBox[] {
  const out: TLabelCellBox[] = [];
  for (let row = 0; row < s.rows; row++)
    for (let column = 0; column < s.columns; column++)
      out.push({
        index: row * s.columns + column,
        column,
        row,
        x_mm: round2(s.margin_left_mm + column * s.pitch_x_mm + s.offset_x_mm),
        y_mm: round2(s.margin_top_mm + row * s.pitch_y_mm + s.offset_y_mm),
        width_mm: s.label_width_mm,
        height_mm: s.label_height_mm,
      });
  return out;
}
const round2 = (n: number) => Math.round(n * 100) / 100;

export const ZLabelRequest = z.strictObject({
  kind: z.enum(LABEL_KINDS),
  sheet_id: ZId,
  /** Rows to print and how many labels of each. */
  items: z
    .array(z.strictObject({ id: ZId, copies: z.number().int().min(1).max(999).default(1) }))
    .min(1)
    .max(2000),
  /** Print the name under the code ("with or without product name"). */
  show_name: z.boolean().default(true),
  /** auto: EAN-13 for a product with a valid 13-digit barcode, else Code128 of the code. */
  symbology: z.enum(SYMBOLOGIES).default('auto'),
  /** First free cell (1-based) on a partly used first sheet. */
  start_cell: z.number().int().min(1).max(200).default(1),
});
export type TLabelRequest = z.input<typeof ZLabelRequest>;
export const LABEL_MAX_CELLS = 5000;

export const ZLabelCell = z.object({
  index: z.number().int(),
  x_mm: z.number(),
  y_mm: z.number(),
  width_mm: z.number(),
  height_mm: z.number(),
  /** What the barcode encodes. */
  value: z.string(),
  symbology: z.enum(['code128', 'ean13', 'qrcode']),
  /** Human-readable lines under the barcode. */
  caption: z.string(),
  name: z.string().nullable(),
  /** The barcode as SVG markup (bwip-js); scales to the box without distortion. */
  svg: z.string(),
});
export type TLabelCell = z.infer<typeof ZLabelCell>;
export const ZLabelDocument = z.object({
  sheet: ZLabelSheet,
  pages: z.array(z.object({ cells: z.array(ZLabelCell) })),
  label_count: z.number().int(),
});
export type TLabelDocument = z.infer<typeof ZLabelDocument>;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The CSS of a printed label document: A4 pages without margins, cells at absolute mm positions. */
export function labelDocumentCss(sheet: Pick<TLabelSheet, 'page_width_mm' | 'page_height_mm'>): string {
  return `@page { size: ${sheet.page_width_mm}mm ${sheet.page_height_mm}mm; margin: 0 }
html, body { margin: 0; padding: 0; }
.label-page { position: relative; width: ${sheet.page_width_mm}mm; height: ${sheet.page_height_mm}mm; overflow: hidden; page-break-after: always; break-after: page; background: #fff; }
.label-page:last-child { page-break-after: auto; break-after: auto; }
.label-cell { position: absolute; box-sizing: border-box; padding: 0.8mm 1mm; display: flex; flex-direction: column; align-items: center; justify-content: center; overflow: hidden; color: #000; font-family: sans-serif; }
.label-code { flex: 1 1 auto; width: 100%; min-height: 0; display: flex; align-items: center; justify-content: center; }
.label-code svg { width: 100%; height: 100%; display: block; }
.label-caption { flex: 0 0 auto; font-size: 2.4mm; line-height: 1.1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }
.label-name { flex: 0 0 auto; font-size: 2.2mm; line-height: 1.1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }`;
}

/**
 * The label pages as HTML markup (the print screens and the PDF test render exactly this). SVGs come from the
 * server's barcode renderer; captions and names are escaped.
 */
export function labelDocumentHtml(doc: TLabelDocument, opts: { outline?: boolean } = {}): string {
  const outline = opts.outline ? 'outline: 0.1mm dashed #bbb;' : '';
  return doc.pages
    .map(
      (p) =>
        `<div class="label-page">${p.cells
          .map(
            (c) =>
              `<div class="label-cell" data-index="${c.index}" style="left:${c.x_mm}mm;top:${c.y_mm}mm;width:${c.width_mm}mm;height:${c.height_mm}mm;${outline}"><div class="label-code">${c.svg}</div>${
                c.caption ? `<div class="label-caption">${escapeHtml(c.caption)}</div>` : ''
              }${c.name ? `<div class="label-name">${escapeHtml(c.name)}</div>` : ''}</div>`,
          )
          .join('')}</div>`,
    )
    .join('');
}

/** A complete printable document (used for PDF output and tests). */
export function labelDocumentPage(doc: TLabelDocument, title = 'labels'): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${labelDocumentCss(doc.sheet)}</style></head><body>${labelDocumentHtml(doc)}</body></html>`;
}

export const labelRoutes = defineRoutes({
  listLabelSheets: {
    method: 'GET',
    path: '/api/label-sheets/',
    auth: 'customer',
    perm: 'products:read',
    query: z.object({ cells: z.coerce.number().int().optional() }),
    response: z.object({ count: z.number().int(), results: z.array(ZLabelSheet) }),
  },
  createLabelSheet: {
    method: 'POST',
    path: '/api/label-sheets/',
    auth: 'customer',
    perm: 'products:write',
    body: ZCreateLabelSheet,
    response: ZLabelSheet,
  },
  updateLabelSheet: {
    method: 'PATCH',
    path: '/api/label-sheets/:id/',
    auth: 'customer',
    perm: 'products:write',
    params: ZIdParams,
    body: ZUpdateLabelSheet,
    response: ZLabelSheet,
    tenantScoped: true,
  },
  deleteLabelSheet: {
    method: 'DELETE',
    path: '/api/label-sheets/:id/',
    auth: 'customer',
    perm: 'products:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  /** Lay out labels of products, storage locations or packaging on a sheet, with barcodes (bwip-js SVG). */
  renderLabels: {
    method: 'POST',
    path: '/api/labels/render/',
    auth: 'customer',
    perm: 'products:read',
    body: ZLabelRequest,
    response: ZLabelDocument,
  },
});
