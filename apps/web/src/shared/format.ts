import { getLanguage } from './preferences/preferences';

/** Times are shown in Asia/Taipei by default (shared ARCHITECTURE §4). */
export const DISPLAY_TIME_ZONE = 'Asia/Taipei';

const LOCALE: Record<string, string> = { 'zh-TW': 'zh-TW', ja: 'ja-JP', en: 'en-GB' };

export function formatDateTime(iso: string, language: string = getLanguage(), timeZone = DISPLAY_TIME_ZONE): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE[language] ?? 'zh-TW', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(d);
}
