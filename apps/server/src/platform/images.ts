import { AppError } from './errors';

/** The image formats an uploaded picture may be, by their first bytes (a data URL's media type is only a claim). */
const IMAGE_SIGNATURES: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  webp: [0x52, 0x49, 0x46, 0x46],
};

/**
 * A PNG/JPEG/WebP data URL whose bytes are the image type it names (a support ticket's screenshot, a store's logo),
 * or 400 INVALID_FIELD naming `field`: HTML, SVG or anything else labelled as an image is refused.
 */
export function checkedImageDataUrl(dataUrl: string, field: string): string {
  const m = /^data:image\/(png|jpeg|webp);base64,(.*)$/.exec(dataUrl);
  const bytes = m ? Buffer.from(m[2]!, 'base64') : Buffer.alloc(0);
  const signature = m ? IMAGE_SIGNATURES[m[1]!]! : [];
  const ok =
    bytes.length > signature.length &&
    signature.every((b, i) => bytes[i] === b) &&
    (m?.[1] !== 'webp' || bytes.subarray(8, 12).toString('latin1') === 'WEBP');
  if (!ok) throw new AppError('INVALID_FIELD', { field });
  return dataUrl;
}
