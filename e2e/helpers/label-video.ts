import { writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { code128Png } from '../../apps/server/src/modules/labels/labels.barcode';

/** A decoded 8-bit PNG as grey levels (0 black … 255 white), row by row. */
interface TGrey {
  width: number;
  height: number;
  grey: Uint8Array;
}

/**
 * A minimal PNG reader for the images our label code draws (bwip-js: 8-bit grey, grey+alpha, RGB or RGBA, not
 * interlaced): the IDAT stream inflated and its per-row filters undone (PNG spec §9), then each pixel made grey.
 */
function readPng(png: Buffer): TGrey {
  if (png.subarray(1, 4).toString() !== 'PNG') throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let colourType = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString();
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      colourType = data[9]!;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  const channels = ({ 0: 1, 4: 2, 2: 3, 6: 4 } as Record<number, number>)[colourType];
  if (!channels) throw new Error(`PNG colour type ${colourType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels]! : 0;
      const b = prev[x]!;
      const c = x >= channels ? prev[x - channels]! : 0;
      let v = src[x]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[x] = v & 0xff;
    }
  }
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const px = rows.subarray(i * channels, (i + 1) * channels);
    const level = channels >= 3 ? Math.round((px[0]! + px[1]! + px[2]!) / 3) : px[0]!;
    // A transparent pixel is the paper.
    const alpha = channels === 2 ? px[1]! : channels === 4 ? px[3]! : 255;
    grey[i] = alpha < 128 ? 255 : level;
  }
  return { width, height, grey };
}

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing a product label's Code128
 * barcode exactly as our label code draws it (labels.barcode.ts `code128Png`, the bars of the thermal and sheet
 * labels): black on white paper, centred in a 640 × 480 frame, the bars stretched to 200 px tall. Y4M is a one-line
 * header and raw 4:2:0 frames (a Y plane, then U and V at half size), so no encoder is needed.
 */
export async function writeLabelBarcodeVideo(file: string, value: string, frames = 10): Promise<void> {
  const W = 640;
  const H = 480;
  const png = readPng(await code128Png(value));
  if (png.width > W) throw new Error(`the barcode of ${value} is ${png.width} px wide, wider than the frame`);
  const barH = 200;
  const x0 = Math.floor((W - png.width) / 2);
  const y0 = Math.floor((H - barH) / 2);
  const y = Buffer.alloc(W * H, 235); // white paper (video range)
  for (let r = 0; r < barH; r++) {
    const srcRow = Math.min(png.height - 1, Math.floor((r / barH) * png.height));
    for (let c = 0; c < png.width; c++) {
      const level = png.grey[srcRow * png.width + c]!;
      // Studio range (16 black … 235 white), as a camera's YUV delivers it.
      y[(y0 + r) * W + x0 + c] = 16 + Math.round((level * 219) / 255);
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
