import { createInflateRaw } from 'node:zlib';
import { AppError } from './errors';

/**
 * Guards for uploaded .xlsx files (zip archives) before anything parses them. A zip bomb — a small file that inflates
 * to gigabytes, or thousands of entries — must fail its job, never take the process down, so:
 * - `checkZipDirectory` (cheap, at upload): the central directory's entry count and declared sizes within the limits;
 * - `verifyZip` (before parsing): every entry walked in file order the way a streaming reader walks it (no bytes
 *   outside a listed entry, so nothing hidden from the directory), and inflated into a counter that stops at the
 *   declared size: an entry that inflates to more than it declares is refused, so the declared limits hold.
 */

export interface TZipLimits {
  /** Entries in the archive (a workbook has a dozen or two). */
  entries: number;
  /** Inflated size of all entries together (worksheets are streamed: this bounds time and temp files). */
  uncompressedBytes: number;
  /** Inflated size of one entry that readers hold in memory (shared strings, styles: everything but worksheets). */
  heldEntryBytes: number;
}

interface TZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_DESCRIPTOR = 0x08074b50;
const DESCRIPTOR = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
const WORKSHEET = /^xl\/worksheets\/sheet\d+\.xml$/;

const invalid = () => new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
const tooLarge = () => new AppError('BODY_TOO_LARGE', { field: 'file_base64' });

/** The central directory: entry names, methods, sizes and where their local headers are. */
function centralDirectory(zip: Buffer, limits: TZipLimits): { entries: TZipEntry[]; offset: number } {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--)
    if (zip.readUInt32LE(i) === SIG_END) {
      end = i;
      break;
    }
  if (end < 0) throw invalid();
  const count = zip.readUInt16LE(end + 10);
  const size = zip.readUInt32LE(end + 12);
  const offset = zip.readUInt32LE(end + 16);
  // ZIP64 (or a multi-disk archive) is never needed for a file within the upload limit.
  if (count === 0xffff || offset === 0xffffffff || zip.readUInt16LE(end + 4) !== 0) throw invalid();
  if (count > limits.entries) throw tooLarge();
  if (offset + size > end) throw invalid();
  const entries: TZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || zip.readUInt32LE(p) !== SIG_CENTRAL) throw invalid();
    const nameLength = zip.readUInt16LE(p + 28);
    entries.push({
      flags: zip.readUInt16LE(p + 8),
      method: zip.readUInt16LE(p + 10),
      compressedSize: zip.readUInt32LE(p + 20),
      uncompressedSize: zip.readUInt32LE(p + 24),
      localOffset: zip.readUInt32LE(p + 42),
      name: zip.toString('utf8', p + 46, p + 46 + nameLength),
    });
    p += 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return { entries, offset };
}

function checkDeclared(entries: TZipEntry[], limits: TZipLimits): void {
  let total = 0;
  for (const e of entries) {
    if (e.method !== 0 && e.method !== 8) throw invalid();
    if (e.compressedSize === 0xffffffff || e.uncompressedSize === 0xffffffff) throw invalid();
    if (!WORKSHEET.test(e.name) && e.uncompressedSize > limits.heldEntryBytes) throw tooLarge();
    total += e.uncompressedSize;
  }
  if (total > limits.uncompressedBytes) throw tooLarge();
}

/** A malformed archive (offsets past its end, …) is an unreadable file, whatever the reading stumbled on. */
function asFileError(err: unknown): never {
  throw err instanceof AppError ? err : invalid();
}

/** At upload: the entry count and the declared sizes are within the limits (the directory is read, nothing inflated). */
export function checkZipDirectory(zip: Buffer, limits: TZipLimits): void {
  try {
    checkDeclared(centralDirectory(zip, limits).entries, limits);
  } catch (err) {
    asFileError(err);
  }
}

/** How many bytes `data` inflates to, counting at most `limit + 1` (the rest is never produced). */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        inflate.destroy();
        resolve(size);
      }
    });
    inflate.on('end', () => resolve(size));
    inflate.on('error', () => reject(invalid()));
    inflate.end(data);
  });
}

/**
 * Before parsing: the directory within the limits, every byte before it inside a listed entry (local headers in
 * order, data where a streaming reader looks for it), and every entry inflating to exactly its declared size.
 */
export async function verifyZip(zip: Buffer, limits: TZipLimits): Promise<void> {
  await walkEntries(zip, limits).catch(asFileError);
}

async function walkEntries(zip: Buffer, limits: TZipLimits): Promise<void> {
  const { entries, offset } = centralDirectory(zip, limits);
  checkDeclared(entries, limits);
  let p = 0;
  for (const e of [...entries].sort((a, b) => a.localOffset - b.localOffset)) {
    if (e.localOffset !== p || p + 30 > offset || zip.readUInt32LE(p) !== SIG_LOCAL) throw invalid();
    if (zip.readUInt16LE(p + 8) !== e.method) throw invalid();
    const flags = zip.readUInt16LE(p + 6);
    const localCompressed = zip.readUInt32LE(p + 18);
    const start = p + 30 + zip.readUInt16LE(p + 26) + zip.readUInt16LE(p + 28);
    const stop = start + e.compressedSize;
    if (stop > offset) throw invalid();
    // A streaming reader takes the local header's size, or (bit 3, size 0) reads up to the first descriptor
    // signature: either way its data must be the bytes the directory describes.
    const sizeKnown = !(flags & 0x08) || localCompressed > 0;
    if (sizeKnown ? localCompressed !== e.compressedSize : zip.indexOf(DESCRIPTOR, start) !== stop) throw invalid();
    const data = zip.subarray(start, stop);
    const actual = e.method === 0 ? data.length : await inflatedSize(data, e.uncompressedSize);
    if (actual !== e.uncompressedSize) throw invalid();
    p = stop;
    if (flags & 0x08) {
      // The data descriptor: 12 bytes, or 16 with its optional signature.
      p += zip.readUInt32LE(p) === SIG_DESCRIPTOR ? 16 : 12;
    }
  }
  if (p !== offset) throw invalid();
}

/** An entry of an archive as stored: its name, compression method (0 stored, 8 deflated) and data. */
export interface TZipData {
  name: string;
  method: number;
  data: Buffer;
}

/** The entries of an archive that passed `verifyZip`, in file order, with their data as stored (not inflated). */
export function zipEntries(zip: Buffer): TZipData[] {
  const unlimited = { entries: Number.POSITIVE_INFINITY, uncompressedBytes: 0, heldEntryBytes: 0 };
  return centralDirectory(zip, unlimited)
    .entries.sort((a, b) => a.localOffset - b.localOffset)
    .map((e) => {
      const p = e.localOffset;
      const start = p + 30 + zip.readUInt16LE(p + 26) + zip.readUInt16LE(p + 28);
      return { name: e.name, method: e.method, data: zip.subarray(start, start + e.compressedSize) };
    });
}
