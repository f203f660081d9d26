import { ERROR_CATALOGUE, type TErrorCode } from '@wms/contracts';

/** A domain error with a catalogue code; the error handler turns it into `{ error: { code, message, params } }`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: TErrorCode,
    readonly params: Record<string, unknown> = {},
    status?: number,
  ) {
    super(code);
    this.status = status ?? ERROR_CATALOGUE[code].status;
  }
}

/** 404 for a row that is missing or belongs to another tenant (the two are never told apart). */
export const notFound = (params: Record<string, unknown> = {}) => new AppError('NOT_FOUND', params);
