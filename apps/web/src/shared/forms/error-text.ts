import { ERROR_CATALOGUE, errorMessage, type TErrorCode, type TLanguage } from '@wms/contracts';
import { i18n } from '../../i18n/i18n';
import { ApiError } from '../api/client';
import { getLanguage } from '../preferences/preferences';

function isCatalogued(code: string): code is TErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

/** The user's-language text of a failed call: the shared catalogue by code (spec §8), else a generic line. */
export function errorText(err: unknown, lang: TLanguage = getLanguage()): string {
  if (err instanceof ApiError) {
    if (isCatalogued(err.code)) return errorMessage(err.code, lang, err.params);
    if (err.code === 'NETWORK_ERROR') return i18n.t('common:error.network');
  }
  return i18n.t('common:error.body');
}

/** The form field a server error is about (`params.field`), if any. */
export function errorField(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const field = err.params.field;
  return typeof field === 'string' ? field : null;
}

/** The catalogue's message of a failed field check (`field`: the form field's name). */
export function fieldErrorText(code: TErrorCode, field: string, lang: TLanguage = getLanguage()): string {
  return errorMessage(code, lang, { field });
}
