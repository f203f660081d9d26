/**
 * Labels: barcode rendering (Code 128 / EAN / QR), label sheet layouts and the label print runs of products,
 * locations and packaging. Owns label_sheets.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { barcodeSvg, pickSymbology } from './labels.barcode';
export { builtinSheets, type TSheetRow } from './labels.repository';
export { layoutLabels, type TLabelSource, toSheet } from './labels.service';
