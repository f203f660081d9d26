import { DEFAULT_LANGUAGE, type TLanguage } from '@wms/contracts';

export type TDocLoader = () => Promise<string>;

/**
 * Pick a document by language from a `<lng>/<page>.md` glob: the chosen language, else Traditional Chinese
 * (spec §1: a page missing in the chosen language shows the zh-TW one). Null when neither exists.
 */
export function pickDocument(
  docs: Record<string, TDocLoader>,
  base: string,
  page: string,
  language: TLanguage,
): { load: TDocLoader; language: TLanguage; fallback: boolean } | null {
  const own = docs[`${base}/${language}/${page}.md`];
  if (own) return { load: own, language, fallback: false };
  const zh = docs[`${base}/${DEFAULT_LANGUAGE}/${page}.md`];
  if (zh) return { load: zh, language: DEFAULT_LANGUAGE, fallback: language !== DEFAULT_LANGUAGE };
  return null;
}
