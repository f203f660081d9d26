import type { TLanguage } from '@wms/contracts';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';

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

export async function loadLocale(language: TLanguage): Promise<Locale> {
  const [code, loadDayjs] = DAYJS[language];
  const [antd] = await Promise.all([ANTD[language](), loadDayjs()]);
  dayjs.locale(code);
  return antd.default;
}
