import type { TLanguage } from '@wms/contracts';
import type { Locale } from 'antd/es/locale';

/** antd and dayjs locales per language, each loaded only when that language is used. */
const ANTD: Record<TLanguage, () => Promise<{ default: Locale }>> = {
  'zh-TW': () => import('antd/es/locale/zh_TW'),
  ja: () => import('antd/es/locale/ja_JP'),
  en: () => import('antd/es/locale/en_US'),
};
const DAYJS: Record<TLanguage, [string, () => Promise<unknown>]> = {
  'zh-TW': ['zh-tw', () => import('dayjs/locale/zh-tw')],
  ja: ['ja', () => import('dayjs/locale/ja')],
  en: ['en', async () => undefined],
};

/**
 * Dates (dayjs) appear only behind the public pages: dayjs and its locale load when the first area that shows them
 * opens (`enableDates`, called by the router before an area renders), not with /login.
 */
let datesInUse = false;
let current: TLanguage | null = null;

async function setDayjsLocale(language: TLanguage): Promise<void> {
  const [code, loadDayjsLocale] = DAYJS[language];
  const [{ default: dayjs }] = await Promise.all([import('dayjs'), loadDayjsLocale()]);
  dayjs.locale(code);
}

export async function loadLocale(language: TLanguage): Promise<Locale> {
  current = language;
  const [antd] = await Promise.all([ANTD[language](), datesInUse ? setDayjsLocale(language) : undefined]);
  return antd.default;
}

/** Before the first screen that formats or picks dates: dayjs in the current language (kept in step from then on). */
export async function enableDates(): Promise<void> {
  datesInUse = true;
  if (current) await setDayjsLocale(current);
}
