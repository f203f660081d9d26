import { createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * Hand-made zip archives for the upload guards' tests: an entry may declare another size than its data inflates to
 * (a lying bomb), and bytes may be slipped between entries where the directory does not list them.
 */
export interface TZipEntrySpec {
  name: string;
  /** The bytes the entry inflates to (deflated here), or its deflated data as it is (`deflated`). */
  data?: Buffer;
  deflated?: Buffer;
  /** Uncompressed size written into the headers (default: the real one). */
  declaredSize?: number;
}

function dosTime(): { time: number; date: number } {
  return { time: 0, date: ((2026 - 1980) << 9) | (1 << 5) | 1 };
}

/** A zip of `entries` (deflated), with `hidden` bytes after the first entry that no directory record points at. */
export function zipArchive(entries: TZipEntrySpec[], opts: { hidden?: Buffer } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const { time, date } = dosTime();
  entries.forEach((e, i) => {
    const name = Buffer.from(e.name, 'utf8');
    const data = e.deflated ?? deflateRawSync(e.data ?? Buffer.alloc(0));
    const size = e.declaredSize ?? e.data?.length ?? 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(0, 14); // CRC: the guards do not read it
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
    if (i === 0 && opts.hidden) {
      locals.push(opts.hidden);
      offset += opts.hidden.length;
    }
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** `bytes` of repeated text deflated as a stream (never held inflated): the payload of a bomb. */
export async function deflatedRepeat(unit: string, bytes: number): Promise<Buffer> {
  const chunk = Buffer.from(unit.repeat(Math.ceil((1024 * 1024) / unit.length)));
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * `prefix`, then `unit` `count` times, then `suffix`, deflated as a stream (never held inflated), with its real
 * inflated size: an honest entry that is merely huge inside (millions of shared strings).
 */
export async function deflatedXml(
  prefix: string,
  unit: string,
  count: number,
  suffix: string,
): Promise<{ deflated: Buffer; size: number }> {
  const perChunk = Math.max(1, Math.floor((1024 * 1024) / unit.length));
  const chunk = Buffer.from(unit.repeat(perChunk));
  const deflate = createDeflateRaw({ level: 6 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const write = async (b: Buffer) => {
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(Buffer.from(prefix));
  let left = count;
  for (; left >= perChunk; left -= perChunk) await write(chunk);
  if (left > 0) await write(Buffer.from(unit.repeat(left)));
  await write(Buffer.from(suffix));
  deflate.end();
  await done;
  return {
    deflated: Buffer.concat(out),
    size: Buffer.byteLength(prefix) + unit.length * count + Buffer.byteLength(suffix),
  };
}
