import {
  errorMessage,
  LANGUAGES,
  type TErrorCode,
  type TImportRowError,
  type TImportUpload,
  type TJob,
  type TLanguage,
  UPLOAD_MAX_BYTES,
} from '@wms/contracts';
import { z } from 'zod';
import type { Db } from '../db/client';
import { withTx } from '../db/tx';
import { writeAudit } from './audit';
import { type TActor, tenantOf, ZActor } from './auth';
import type { TCell } from './cells';
import { AppError } from './errors';
import { type JobQueue, jobView, type TJobContext, type TJobDefinition, type TJobRow } from './jobs';
import { readSheetBatches, readSheetIsolated, rowsOf } from './sheet-worker';
import { columnNames, fileKind, headerText, matchColumns, type TFileKind, type TSheetRow } from './spreadsheet';
import { checkZipDirectory, type TZipLimits } from './zip';

/**
 * The import kernel shared by every file import (products, storage locations, orders) and the request-path file
 * readers (batch changes, consignment files, the mapping form's sample): one size policy, one upload path into a
 * job, one streaming row reader with one header matcher, one row-error collector with one cap.
 */

const MiB = 1024 * 1024;

/** The size policy of every upload: the file as sent, and (an .xlsx is a zip) what it may inflate to. */
export const UPLOAD_LIMITS: TZipLimits & { bytes: number; parseHeapMb: number; replayBytes: number } = {
  bytes: UPLOAD_MAX_BYTES,
  entries: 1000,
  uncompressedBytes: 1024 * MiB,
  heldEntryBytes: 200 * MiB,
  /** Heap of the worker thread that parses an upload (platform/sheet-worker.ts): beyond it, IMPORT_FILE_TOO_COMPLEX. */
  parseHeapMb: 256,
  /** Parsed rows an import keeps to read its file a second time without parsing it again (`UploadReplay`). */
  replayBytes: 64 * MiB,
};

/** Body limit of an upload route: the file as base64 plus the JSON around it. */
export const UPLOAD_BODY_LIMIT = Math.ceil((UPLOAD_LIMITS.bytes * 4) / 3) + 64 * 1024;

/** Row errors kept on a refused file (the count says how many there were in all). */
export const MAX_REPORTED_ERRORS = 1000;

/** One problem of an imported row: the field, the catalogue code, and the offending value when it helps. */
export interface TRowIssue {
  /** The sheet row (null when the change did not come from a file). */
  row: number | null;
  field: string | null;
  code: TErrorCode;
  /** Message parameters (besides `field`). */
  params?: Record<string, unknown>;
  /** Shown after the message (e.g. the SKU nobody knows). */
  value?: string | null;
}

/** A problem found in a row's cells before its row number is attached. */
export type TFieldIssue = Omit<TRowIssue, 'row'>;

/** zod issues of one row → row issues (missing → REQUIRED_FIELD, anything else INVALID_FIELD), named by field. */
export function zodRowIssues(row: number, error: z.ZodError): TRowIssue[] {
  return error.issues.map((i) => {
    const field = i.path.length ? i.path.map(String).join('.') : null;
    const missing =
      (i.code === 'invalid_type' && i.input === undefined) ||
      (i.code === 'too_small' && i.origin === 'string' && Number(i.minimum) === 1);
    return { row, field, code: missing ? 'REQUIRED_FIELD' : 'INVALID_FIELD' };
  });
}

/**
 * Refuse a whole file: IMPORT_REJECTED with the number of problems and the first MAX_REPORTED_ERRORS in row order,
 * each with its message in the uploader's language.
 */
export function rejectRows(issues: TRowIssue[], lang: TLanguage, count = issues.length): never {
  const errors: TImportRowError[] = issueMessages(issues, lang)
    .slice(0, MAX_REPORTED_ERRORS)
    .map((e) => ({ ...e, row: e.row ?? 0 }));
  throw new AppError('IMPORT_REJECTED', { count, errors });
}

/** Row issues in row order, each with its message in `lang` (and the offending value after it). */
export function issueMessages(issues: TRowIssue[], lang: TLanguage) {
  return [...issues]
    .sort((a, b) => (a.row ?? 0) - (b.row ?? 0))
    .map((i) => {
      const message = errorMessage(i.code, lang, { field: i.field ?? '', ...i.params });
      return { row: i.row, field: i.field, code: i.code, message: i.value ? `${message}: ${i.value}` : message };
    });
}

/**
 * Collects the problems of a file as it streams: counts them all, keeps the MAX_REPORTED_ERRORS of the lowest rows
 * (memory stays flat however bad the file), and refuses the file with them.
 */
export class RowIssues {
  private kept: TRowIssue[] = [];
  private total = 0;

  constructor(readonly lang: TLanguage) {}

  add(...issues: TRowIssue[]): void {
    this.total += issues.length;
    this.kept.push(...issues);
    if (this.kept.length >= 2 * MAX_REPORTED_ERRORS) {
      this.kept.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
      this.kept.length = MAX_REPORTED_ERRORS;
    }
  }

  /** Attach a row number to the problems found in its cells. */
  addAt(row: number, issues: TFieldIssue[]): void {
    this.add(...issues.map((i) => ({ ...i, row })));
  }

  get count(): number {
    return this.total;
  }

  /** Refuse the file when anything was found. */
  rejectIfAny(): void {
    if (this.total) rejectRows(this.kept, this.lang, this.total);
  }
}

// ---- uploads ----

/**
 * Decode an uploaded file and refuse it before it reaches a job: empty, over the size limit, not one of `kinds`, or
 * (an .xlsx) a zip whose directory lists too many entries or declares too much inflated data.
 */
export function decodeUpload(base64: string, kinds: readonly TFileKind[] = ['xlsx', 'csv']): Buffer {
  const content = Buffer.from(base64, 'base64');
  if (content.length === 0) throw new AppError('REQUIRED_FIELD', { field: 'file_base64' });
  if (content.length > UPLOAD_LIMITS.bytes) throw new AppError('BODY_TOO_LARGE', { field: 'file_base64' });
  const kind = fileKind(content);
  if (!kind || !kinds.includes(kind)) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  if (kind === 'xlsx') checkZipDirectory(content, UPLOAD_LIMITS);
  return content;
}

/** What every import job carries: the uploader's language (row errors in it) and identity (the audit row). */
export const ZImportPayload = z.object({ lang: z.enum(LANGUAGES), actor: ZActor });
export type TImportPayload = z.infer<typeof ZImportPayload>;

export const toJob = jobView;

/**
 * Queue an import: the checked file is stored with the job in one transaction (with its audit row), then the runner
 * is kicked. The web app polls GET /api/jobs/:id/; the job writes everything or nothing.
 */
export async function queueImport<P extends TImportPayload>(
  deps: { db: Db; jobs: JobQueue },
  actor: TActor,
  input: {
    job: TJobDefinition<P>;
    file_base64: string;
    fileName: string;
    kinds?: readonly TFileKind[];
    /** Saved on the job next to the uploader's language and identity. */
    payload?: Record<string, unknown>;
  },
  lang: TLanguage,
): Promise<TJob> {
  const customerId = tenantOf(actor);
  const content = decodeUpload(input.file_base64, input.kinds);
  const job = await withTx(deps.db, async (tx) => {
    const row = await deps.jobs.enqueue(tx, input.job, { ...input.payload, lang, actor } as P, {
      customerId,
      createdBy: actor.id,
      file: { name: input.fileName, content },
    });
    await writeAudit(tx, actor, {
      action: 'import_requested',
      entity: 'job',
      entityId: row.id,
      after: { kind: input.job.name, file_name: input.fileName, bytes: content.length, ...input.payload },
    });
    return row;
  });
  deps.jobs.kick(input.job.name);
  return toJob(job);
}

/** Queue the import of one of our own sheets (products, storage locations): an .xlsx in the export's layout. */
export function queueSheetImport(
  deps: { db: Db; jobs: JobQueue },
  actor: TActor,
  job: TJobDefinition<TImportPayload>,
  upload: TImportUpload,
  lang: TLanguage,
): Promise<TJob> {
  const fileName = upload.filename ?? `${job.name}.xlsx`;
  return queueImport(deps, actor, { job, file_base64: upload.file_base64, fileName, kinds: ['xlsx'] }, lang);
}

/** The uploader's language and identity (and what else the import saved), from the job. */
export function jobPayload<T extends object = object>(job: TJobRow): { lang: TLanguage; actor: TActor } & T {
  return job.payload as { lang: TLanguage; actor: TActor } & T;
}

/** The job's file (an import job always has one). */
export async function jobFile(ctx: TJobContext): Promise<{ name: string; content: Buffer }> {
  const file = await ctx.file();
  if (!file) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  return file;
}

/**
 * Progress of a job from inside its write transaction: reports are chained and never awaited there (on PGlite, one
 * connection, a write outside the transaction waits for it to end); `settled()` after the transaction.
 */
export function progressFromTx(ctx: TJobContext): {
  report: (done: number, total?: number) => void;
  settled: () => Promise<void>;
} {
  let last = Promise.resolve();
  return {
    report: (done, total) => {
      last = last.then(() => ctx.progress(done, total)).catch(() => undefined);
    },
    settled: () => last,
  };
}

// ---- rows ----

/**
 * Rows of an uploaded file as they stream, after the size policy's checks, parsed in a worker thread with a heap
 * limit of its own (a file that needs more memory is refused; the server's heap never holds the parse).
 */
export function uploadRows(content: Buffer | UploadReplay): AsyncGenerator<TSheetRow> {
  if (content instanceof UploadReplay) return content.rows();
  return readSheetIsolated(content, UPLOAD_LIMITS, UPLOAD_LIMITS.parseHeapMb);
}

/** `uploadRows` a batch at a time (a few hundred rows per await, for a consumer of many rows). */
export function uploadBatches(content: Buffer | UploadReplay): AsyncGenerator<TSheetRow[]> {
  if (content instanceof UploadReplay) return content.batches();
  return readSheetBatches(content, UPLOAD_LIMITS, UPLOAD_LIMITS.parseHeapMb);
}

/**
 * An uploaded file read more than once (an import's check pass, then its write pass), parsed once: the first read
 * keeps the batches as the worker serialised them (bytes outside the JS heap, about the size of the sheet's text), a
 * read after a complete one replays them. A first read stopped early (a refused file, a consumer that broke off) keeps
 * nothing; beyond `maxBytes` of batches nothing is kept either — the next read parses the file again.
 */
export class UploadReplay {
  private kept: Buffer[] | null = null;

  constructor(
    readonly content: Buffer,
    private readonly maxBytes = UPLOAD_LIMITS.replayBytes,
  ) {}

  async *rows(): AsyncGenerator<TSheetRow> {
    for await (const batch of this.batches()) yield* batch;
  }

  async *batches(): AsyncGenerator<TSheetRow[]> {
    if (this.kept) {
      for (const batch of this.kept) yield rowsOf(batch);
      return;
    }
    let batches: Buffer[] | null = [];
    let bytes = 0;
    const keep = (data: Buffer) => {
      bytes += data.length;
      if (batches && bytes <= this.maxBytes) batches.push(data);
      else batches = null;
    };
    yield* readSheetBatches(this.content, UPLOAD_LIMITS, UPLOAD_LIMITS.parseHeapMb, keep);
    this.kept = batches;
  }
}

/** How to read an import file: where its header is, which headers name which fields, which fields it needs. */
export interface TImportLayout<K extends string> {
  /** 1-based row of the headers (rows above it are skipped: titles, notes). */
  headerRow?: number;
  /** Per field, the headers it may have in fallback order; or worked out from the file's own headers. */
  names: Partial<Record<K, readonly string[]>> | ((headers: string[]) => Partial<Record<K, readonly string[]>>);
  required: readonly K[];
  /** Most data rows accepted (the file is refused with ABNORMAL_QUANTITY beyond it). */
  maxRows?: number;
}

/** A data row of an import file with its columns matched to fields. */
export class ImportRow<K extends string> {
  constructor(
    /** The row number the user sees. */
    readonly row: number,
    readonly cells: TCell[],
    /** Field → its columns (0-based, in fallback order), as matched from the header row. */
    readonly columns: Partial<Record<K, number[]>>,
  ) {}

  /** The field's first non-empty cell (a field may have fallback columns). */
  value(field: K): TCell {
    for (const i of this.columns[field] ?? []) {
      const c = this.cells[i];
      if (c !== null && c !== undefined) return c;
    }
    return null;
  }

  /** Every non-empty cell of the field's columns, in fallback order. */
  values(field: K): TCell[] {
    return (this.columns[field] ?? []).map((i) => this.cells[i] ?? null).filter((c) => c !== null);
  }

  /** Field → first non-empty cell, for every matched field. */
  record(): Partial<Record<K, TCell>> {
    const out: Partial<Record<K, TCell>> = {};
    for (const field of Object.keys(this.columns) as K[]) out[field] = this.value(field);
    return out;
  }
}

/**
 * Stream the data rows of an import file: the header row is matched to the layout's fields (missing required columns
 * refuse the file at once, named on the header row), rows with nothing in a matched column are skipped, more than
 * `maxRows` refuse the file. A file without a header row is NO_DATA.
 */
export async function* importRows<K extends string>(
  content: Buffer | UploadReplay,
  layout: TImportLayout<K>,
  issues: RowIssues,
): AsyncGenerator<ImportRow<K>> {
  for await (const batch of importRowBatches(content, layout, issues)) yield* batch;
}

/**
 * `importRows` a batch at a time (the worker's batches, less the skipped rows; never empty): one await per batch for
 * a consumer of many rows (the order import), the same rows, refusals and errors.
 */
export async function* importRowBatches<K extends string>(
  content: Buffer | UploadReplay,
  layout: TImportLayout<K>,
  issues: RowIssues,
): AsyncGenerator<ImportRow<K>[]> {
  const headerRow = layout.headerRow ?? 1;
  let columns: Partial<Record<K, number[]>> | null = null;
  let used: number[] = [];
  let rows = 0;
  for await (const sheetRows of uploadBatches(content)) {
    const out: ImportRow<K>[] = [];
    for (const r of sheetRows) {
      if (r.row < headerRow) continue;
      if (!columns) {
        const headers = r.cells.map(headerText);
        const names = typeof layout.names === 'function' ? layout.names(headers) : layout.names;
        const match = matchColumns(headers, names, layout.required);
        issues.add(...match.missing.map((field) => ({ row: r.row, field, code: 'REQUIRED_FIELD' as const })));
        issues.rejectIfAny();
        columns = match.columns;
        used = Object.values<number[] | undefined>(columns).flatMap((c) => c ?? []);
        continue;
      }
      if (!used.some((i) => r.cells[i] !== null && r.cells[i] !== undefined)) continue;
      if (layout.maxRows !== undefined && ++rows > layout.maxRows) {
        // The rows before the one over the cap come first, as one by one they would.
        if (out.length) yield out;
        throw new AppError('ABNORMAL_QUANTITY', { field: 'file_base64', max: layout.maxRows });
      }
      out.push(new ImportRow(r.row, r.cells, columns));
    }
    if (out.length) yield out;
  }
  if (!columns) throw new AppError('NO_DATA');
}

/** All data rows of an import file (master data: a capped number of rows, checked together). */
export async function readImportRows<K extends string>(
  content: Buffer,
  layout: TImportLayout<K>,
  issues: RowIssues,
): Promise<ImportRow<K>[]> {
  const rows: ImportRow<K>[] = [];
  for await (const r of importRows(content, layout, issues)) rows.push(r);
  return rows;
}

/** The layout of a file in one of our own column sets (exports, templates): headers by key or label, any language. */
export function sheetLayout<K extends string>(
  columns: ReadonlyArray<{ key: K; required?: boolean }>,
  maxRows?: number,
): TImportLayout<K> {
  return {
    names: Object.fromEntries(columns.map((c) => [c.key, columnNames(c.key)])) as Record<K, string[]>,
    required: columns.filter((c) => c.required).map((c) => c.key),
    maxRows,
  };
}

/** The note on the first sheet of an import template (locations, products): how the file is read. */
export const IMPORT_NOTE = {
  'zh-TW':
    '第 1 列為欄位名稱，請從第 2 列開始填寫；* 為必填。代碼已存在時會更新該筆資料，空白欄位不變。任何一列有錯誤時整個檔案都不會匯入。',
  ja: '1 行目は見出しです。2 行目から入力してください（* は必須）。既存のコードは更新され、空欄は変更されません。どこかの行にエラーがあるとファイル全体が取り込まれません。',
  en: 'Row 1 holds the headers; fill in from row 2 (* = required). An existing code is updated, blank cells stay unchanged. If any row has an error, nothing in the file is imported.',
} as const;
