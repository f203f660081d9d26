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

/** A label request and the warehouse whose label printer prints it. */
export const ZSendLabelsToPrinter = ZLabelRequest.extend({ warehouse_id: ZId });
export type TSendLabelsToPrinter = z.input<typeof ZSendLabelsToPrinter>;
export const ZSentToPrinter = z.object({
  /** host:port the ZPL went to. */
  printer: z.string(),
  labels: z.number().int(),
  bytes: z.number().int(),
});

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
  /**
   * Print labels on the warehouse's label printer: the same labels as ZPL (`labelDocumentZpl`, 203 dpi), sent raw over
   * TCP to the printer's host and port (9100 by convention), nothing around it. The printer answers nothing; the
   * labels are sent once the connection took every byte.
   */
  sendLabelsToPrinter: {
    method: 'POST',
    path: '/api/labels/send-to-printer/',
    auth: 'customer',
    perm: 'products:read',
    body: ZSendLabelsToPrinter,
    response: ZSentToPrinter,
  },
});

/** Field data for ZPL's ^FH (hex escapes with `_`): the characters ZPL would read as commands, and `_` itself. */
function zplText(s: string): string {
  return s.replace(/[_^~\\]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * The labels as ZPL II for Zebra-compatible thermal printers: one label (^XA…^XZ) per cell, sized to the cell, at the
 * printer's resolution (203 dpi by default; 300 dpi printers take `dpi: 300`). The barcode is the printer's own:
 * Code 128 (^BC), EAN-13 (^BE, 12 digits, the printer adds the check digit) or QR (^BQ); the caption in the printer's
 * font 0, the name in its Traditional Chinese TrueType font (E:ANMDT.TTF, Zebra's Andale Mono TC, which a printer
 * must have installed for CJK names; Latin names use font 0). UTF-8 text (^CI28).
 */
export function labelDocumentZpl(doc: TLabelDocument, opts: { dpi?: 203 | 300 } = {}): string {
  const dpi = opts.dpi ?? 203;
  const dots = (mm: number) => Math.round((mm * dpi) / 25.4);
  const out: string[] = [];
  for (const page of doc.pages)
    for (const c of page.cells) {
      const w = dots(c.width_mm);
      const h = dots(c.height_mm);
      const m = dots(1.5);
      const captionH = dots(2.6);
      const nameH = c.name ? dots(2.4) : 0;
      const barH = Math.max(dots(6), h - 2 * m - captionH - nameH - dots(1.5));
      const lines = ['^XA', '^CI28', `^PW${w}`, `^LL${h}`, '^LH0,0'];
      if (c.symbology === 'qrcode') {
        // A QR module of `mag` dots; version ~2–4 for our codes (25–33 modules): fit the square into the bar's height.
        const mag = Math.max(1, Math.min(10, Math.floor(barH / 33)));
        const side = mag * 33;
        lines.push(`^FO${Math.max(m, Math.round((w - side) / 2))},${m}^BQN,2,${mag}^FH^FDMA,${zplText(c.value)}^FS`);
      } else if (c.symbology === 'ean13') {
        // 95 modules plus quiet zones: the module width that fits.
        const module = Math.max(1, Math.min(4, Math.floor((w - 2 * m) / 113)));
        lines.push(`^FO${Math.max(m, Math.round((w - 113 * module) / 2))},${m}^BY${module}`);
        lines.push(`^BEN,${barH},N,N^FD${c.value.slice(0, 12)}^FS`);
      } else {
        // Code 128 B: 11 modules a character, start, check and stop (35).
        const modules = 11 * c.value.length + 35;
        const module = Math.max(1, Math.min(4, Math.floor((w - 2 * m) / modules)));
        lines.push(`^FO${Math.max(m, Math.round((w - modules * module) / 2))},${m}^BY${module}`);
        lines.push(`^BCN,${barH},N,N,N^FH^FD${zplText(c.value)}^FS`);
      }
      let y = m + barH + dots(1);
      if (c.caption) {
        lines.push(`^FO${m},${y}^A0N,${captionH},${captionH}^FB${w - 2 * m},1,0,C^FH^FD${zplText(c.caption)}^FS`);
        y += captionH;
      }
      if (c.name) {
        const font = /^[\x20-\x7e]*$/.test(c.name) ? `^A0N,${nameH},${nameH}` : `^A@N,${nameH},${nameH},E:ANMDT.TTF`;
        lines.push(`^FO${m},${y}${font}^FB${w - 2 * m},1,0,C^FH^FD${zplText(c.name)}^FS`);
      }
      lines.push('^PQ1', '^XZ');
      out.push(lines.join('\n'));
    }
  return `${out.join('\n')}\n`;
}
