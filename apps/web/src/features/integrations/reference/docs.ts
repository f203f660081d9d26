import type { TDocLoader } from '../../../shared/markdown/localized';

/** The partner API guide: reference/<lng>/partner-api.md (zh-TW is the fallback). */
export const REFERENCE_DOCS = import.meta.glob<string>('./*/*.md', { query: '?raw', import: 'default' }) as Record<
  string,
  TDocLoader
>;
export const REFERENCE_BASE = '.';
