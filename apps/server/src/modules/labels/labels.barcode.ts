import { isValidProductBarcode } from '@wms/contracts';
import bwipjs from 'bwip-js/node';

export type TBarcodeKind = 'code128' | 'ean13' | 'qrcode';

/** The symbology for a value: EAN-13 only for a valid 13-digit GS1 code, QR when asked, else Code128. */
export function pickSymbology(value: string, wanted: 'auto' | TBarcodeKind): TBarcodeKind {
  const ean = /^\d{13}$/.test(value) && isValidProductBarcode(value);
  if (wanted === 'ean13') return ean ? 'ean13' : 'code128';
  if (wanted === 'auto') return ean ? 'ean13' : 'code128';
  return wanted;
}

/**
 * A barcode as SVG (bwip-js, vector, so it prints sharp at any size). Code128 has no text of its own (the label
 * prints the caption) and may stretch to its box: every bar scales by the same factor, so it still decodes, and a
 * quiet zone of about ten modules is kept on both sides. EAN-13 and QR keep their proportions.
 */
export function barcodeSvg(value: string, kind: TBarcodeKind): string {
  if (kind === 'qrcode') {
    const svg = bwipjs.toSVG({
      bcid: 'qrcode',
      text: value,
      scale: 2,

      paddingwidth: 4,
      paddingheight: 4,
    });
    return svg.replace('<svg ', '<svg preserveAspectRatio="xMidYMid meet" ');
  }
  if (kind === 'ean13') {
    const svg = bwipjs.toSVG({ bcid: 'ean13', text: value, scale: 2, height: 12, includetext: true, paddingwidth: 10 });
    return svg.replace('<svg ', '<svg preserveAspectRatio="xMidYMid meet" ');
  }
  const svg = bwipjs.toSVG({ bcid: 'code128', text: value, scale: 2, height: 10, paddingwidth: 12 });
  return svg.replace('<svg ', '<svg preserveAspectRatio="none" ');
}

/**
 * A Code128 barcode as PNG (bwip-js, the same symbol as `barcodeSvg`) for a PDF drawn with pdf-lib, which embeds
 * raster images only: drawn at 3 px a module so it stays sharp at label size, white background, quiet zone kept.
 */
export function code128Png(value: string): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: 'code128',
    text: value,
    scale: 3,
    height: 12,
    paddingwidth: 12,
    paddingheight: 4,
    backgroundcolor: 'FFFFFF',
  });
}
