import { getLanguage } from './preferences/preferences';

/** Times are shown in Asia/Taipei by default (shared ARCHITECTURE §4). */
export const DISPLAY_TIME_ZONE = 'Asia/Taipei';

const LOCALE: Record<string, string> = { 'zh-TW': 'zh-TW', ja: 'ja-JP', en: 'en-GB' };

// Building an Intl.DateTimeFormat costs about a millisecond; a list of 100 rows formats 100 dates. One per language
// and time zone is kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatDateTime(iso: string, language: string = getLanguage(), timeZone = DISPLAY_TIME_ZONE): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const key = `${language}|${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE[language] ?? 'zh-TW', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    formatters.set(key, format);
  }
  return format.format(d);
}
