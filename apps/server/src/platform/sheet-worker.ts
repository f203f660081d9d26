import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize, getHeapStatistics, serialize } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { TErrorCode } from '@wms/contracts';
import { AppError } from './errors';
import { readSheet, type TSheetRow } from './spreadsheet';
import type { TZipLimits } from './zip';

/**
 * Uploaded spreadsheets are parsed in a worker thread with a heap limit of its own, never on the server's thread: a
 * file that needs more memory than `heapMb` to parse (millions of shared strings that passed the size checks) kills
 * its worker with ERR_WORKER_OUT_OF_MEMORY and is refused with IMPORT_FILE_TOO_COMPLEX — a refusal, so its job ends
 * failed instead of being handed to the next process to die there too.
 *
 * Rows come back in batches (serialised by the worker, transferred as bytes) and only when asked for, one batch ahead
 * of the rows the consumer works on, so a 100,000-row file never queues up in the server's memory. Workers are reused
 * (starting one loads exceljs: about a second), at most `MAX_IDLE` kept idle; only a worker that read a file of at most
 * `REUSE_MAX_BYTES` to the end is reused: one that read a larger file, whose consumer stopped early, that refused its
 * file or that failed is terminated.
 *
 * This one file is both sides: imported on the main thread it exports `readSheetIsolated`; started as a worker (the
 * same module, `workerData.role`) it answers requests.
 */

const ROLE = 'sheet-reader';
const BATCH_ROWS = 500;
const MAX_IDLE = 2;
/** Files up to this size leave their worker for the next read (a larger one ends it). */
const REUSE_MAX_BYTES = 1024 * 1024;
const IDLE_MS = 60_000;
/** Young generation of a worker (MB): the parse allocates fast and keeps little. */
const YOUNG_MB = 8;
/** Share of its heap limit at which a worker gives up on a parse (exit code EXIT_TOO_COMPLEX). */
const HEAP_SHARE = 0.8;
const HEAP_CHECK_MS = 20;
const HEAP_SUSTAIN_MS = 300;
const EXIT_TOO_COMPLEX = 86;

type TRequest = { type: 'open'; content: Uint8Array; limits: TZipLimits } | { type: 'more' };
type TAnswer =
  /** A batch of rows, serialised by the worker (v8.serialize: what postMessage would clone, kept as bytes). */
  | { type: 'rows'; data: Uint8Array; done: boolean }
  | { type: 'refused'; code: string; params: Record<string, unknown> }
  | { type: 'failed'; message: string };

// ---- worker side ----

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) {
  const port = parentPort!;
  // Leave before V8 does: near its limit V8 collects again and again (seconds of thrashing) before it gives up.
  // Used heap counts garbage not yet collected: only a heap that stays above the share for HEAP_SUSTAIN_MS (a collection
  // in between would have brought it down) is a parse that does not fit.
  const limit = getHeapStatistics().heap_size_limit;
  let above = 0;
  setInterval(() => {
    above = getHeapStatistics().used_heap_size > limit * HEAP_SHARE ? above + 1 : 0;
    if (above * HEAP_CHECK_MS >= HEAP_SUSTAIN_MS) process.exit(EXIT_TOO_COMPLEX);
  }, HEAP_CHECK_MS).unref();
  let rows: AsyncGenerator<TSheetRow> | null = null;
  const send = (a: TAnswer) => port.postMessage(a);
  // The batch goes over as bytes, transferred: the reader may keep them to replay the rows (UploadReplay).
  const sendRows = (out: TSheetRow[], done: boolean) => {
    const data = serialize(out);
    const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    const bytes = own ? data : new Uint8Array(data);
    port.postMessage({ type: 'rows', data: bytes, done } satisfies TAnswer, [bytes.buffer as ArrayBuffer]);
  };
  const batch = async () => {
    const out: TSheetRow[] = [];
    try {
      for (;;) {
        const next = await rows!.next();
        if (next.done) {
          rows = null;
          return sendRows(out, true);
        }
        out.push(next.value);
        if (out.length >= BATCH_ROWS) return sendRows(out, false);
      }
    } catch (err) {
      rows = null;
      if (err instanceof AppError) return send({ type: 'refused', code: err.code, params: err.params ?? {} });
      return send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  };
  port.on('message', (req: TRequest) => {
    if (req.type === 'open')
      rows = readSheet(Buffer.from(req.content.buffer, req.content.byteOffset, req.content.byteLength), req.limits);
    void batch();
  });
}

// ---- main-thread side ----

interface TSlot {
  worker: Worker;
  idleTimer?: NodeJS.Timeout;
}

const idle: TSlot[] = [];

/**
 * How this module is started as a worker: compiled JavaScript directly. In the compiled server
 * (scripts/build-server.mjs) this code is bundled into main.js, and the build writes this module on its own as
 * sheet-worker.js next to it: that file is the worker, not the bundle (which would start the server). Under TypeScript
 * (tsx, vitest) this module is bundled the same way, once per process and source, with esbuild (a dev dependency, as
 * tsx is) into `node_modules/.cache/wms/`: a worker that registered tsx' loader instead would run a module-loader thread
 * of its own and compile on the fly, 50–70 MB more per parse (measured on the 100,000-row order import).
 */
function spawn(heapMb: number): Worker {
  const here = new URL(import.meta.url);
  const self = /\/sheet-worker\.[cm]?[jt]s$/.test(here.pathname) ? here : new URL('./sheet-worker.js', here);
  const options = {
    workerData: { role: ROLE },
    // A small young generation: the parse makes short-lived garbage only, and every MB of it is resident.
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(YOUNG_MB, heapMb / 4) },
    stdout: false,
    stderr: false,
  };
  return new Worker(self.pathname.endsWith('.ts') ? bundledWorker(self) : self, options);
}

let bundled: URL | null = null;

/** This module as one JavaScript file (packages stay imports, as in the build), for a worker under TypeScript. */
function bundledWorker(self: URL): URL {
  if (bundled) return bundled;
  const require = createRequire(self);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const pkg = require('../../package.json') as { dependencies: Record<string, string> };
  const result = esbuild.buildSync({
    entryPoints: [fileURLToPath(self)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: Object.keys(pkg.dependencies)
      .filter((name) => !name.startsWith('@wms/'))
      .flatMap((name) => [name, `${name}/*`]),
    banner: {
      js: "import { createRequire as __wmsRequire } from 'node:module'; const require = __wmsRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  // Inside node_modules, so that the packages it imports resolve; named by its content (processes share it).
  const dir = path.join(path.dirname(require.resolve('esbuild/package.json')), '..', '.cache', 'wms');
  const file = path.join(dir, `sheet-worker.${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  bundled = pathToFileURL(file);
  return bundled;
}

function take(heapMb: number): TSlot {
  const slot = idle.pop();
  if (slot) {
    clearTimeout(slot.idleTimer);
    return slot;
  }
  const worker = spawn(heapMb);
  worker.unref();
  return { worker };
}

function release(slot: TSlot): void {
  if (idle.length >= MAX_IDLE) {
    void slot.worker.terminate();
    return;
  }
  slot.idleTimer = setTimeout(() => {
    const i = idle.indexOf(slot);
    if (i >= 0) idle.splice(i, 1);
    void slot.worker.terminate();
  }, IDLE_MS);
  slot.idleTimer.unref();
  idle.push(slot);
}

/** Workers of earlier calls with another heap limit are not reused: the limit is set when a worker starts. */
let idleHeapMb = 0;

/**
 * Rows of the first sheet of an .xlsx (or of a CSV), parsed in a worker thread whose heap is capped at `heapMb`:
 * the same rows, errors and refusals as `readSheet`, plus IMPORT_FILE_TOO_COMPLEX when the parse runs out of memory.
 */
export async function* readSheetIsolated(
  content: Buffer,
  limits: TZipLimits,
  heapMb: number,
  onBatch?: (data: Buffer) => void,
): AsyncGenerator<TSheetRow> {
  for await (const batch of readSheetBatches(content, limits, heapMb, onBatch)) yield* batch;
}

/**
 * `readSheetIsolated` a batch at a time (as the worker sends them): a consumer that works through a batch without
 * awaiting makes one promise per batch instead of several per row and per generator it goes through.
 */
export async function* readSheetBatches(
  content: Buffer,
  limits: TZipLimits,
  heapMb: number,
  /** Handed each batch as the worker serialised it (`rowsOf` turns one back into rows), before its rows are yielded. */
  onBatch?: (data: Buffer) => void,
): AsyncGenerator<TSheetRow[]> {
  if (heapMb !== idleHeapMb) {
    for (const s of idle.splice(0)) {
      clearTimeout(s.idleTimer);
      void s.worker.terminate();
    }
    idleHeapMb = heapMb;
  }
  const slot = take(heapMb);
  const { worker } = slot;
  let reusable = false;
  let pending: { resolve: (a: TAnswer) => void; reject: (e: unknown) => void } | null = null;
  const onMessage = (a: TAnswer) => pending?.resolve(a);
  const tooComplex = () => new AppError('IMPORT_FILE_TOO_COMPLEX', { field: 'file_base64' });
  const onError = (err: Error & { code?: string }) =>
    pending?.reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooComplex() : err);
  const onExit = (code: number) =>
    pending?.reject(code === EXIT_TOO_COMPLEX ? tooComplex() : new Error(`sheet reader stopped (${code})`));
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  const ask = (req: TRequest, transfer: ArrayBuffer[] = []) =>
    new Promise<TAnswer>((resolve, reject) => {
      pending = { resolve, reject };
      worker.postMessage(req, transfer);
    });
  try {
    // A copy goes over (transferred, not cloned again): the caller keeps its buffer.
    const copy = new Uint8Array(content);
    let answer = await ask({ type: 'open', content: copy, limits }, [copy.buffer as ArrayBuffer]);
    for (;;) {
      // A refused file ends its worker too (never reused after a file that was not read to its end).
      if (answer.type === 'refused') throw new AppError(answer.code as TErrorCode, answer.params);
      if (answer.type === 'failed') throw new Error(answer.message);
      const data = Buffer.from(answer.data.buffer, answer.data.byteOffset, answer.data.byteLength);
      onBatch?.(data);
      const rows = rowsOf(data);
      if (answer.done) {
        yield rows;
        reusable = true;
        return;
      }
      // The next batch is parsed while the caller works on this one (one batch ahead, never more): the worker and
      // the caller run at the same time. Its failure surfaces when it is awaited, after this batch's rows.
      const next = ask({ type: 'more' });
      next.catch(() => undefined);
      yield rows;
      answer = await next;
    }
  } finally {
    pending = null;
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    // A worker that parsed a large file is not kept: its heap grew to the parse, and an idle worker gives little back.
    if (reusable && content.length <= REUSE_MAX_BYTES) release(slot);
    else void worker.terminate();
  }
}

/** The rows of a batch as the worker serialised it. */
export function rowsOf(data: Buffer): TSheetRow[] {
  return deserialize(data) as TSheetRow[];
}
