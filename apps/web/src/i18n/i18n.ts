import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from '@wms/contracts';
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage, subscribePreferences } from '../shared/preferences/preferences';

/** One JSON file per language and namespace: locales/<lng>/<namespace>.json, each loaded on first use. */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

export function localeFile(language: string, namespace: string): string {
  return `../locales/${language}/${namespace}.json`;
}

const lazyJsonBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = files[localeFile(language, namespace)];
    if (!load) {
      callback(new Error(`missing locale file ${language}/${namespace}.json`), false);
      return;
    }
    load().then(
      (mod) => callback(null, mod.default),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

export const i18n = i18next.createInstance();

/** Start i18n in the saved language with the `common` namespace loaded; follows later preference changes. */
export async function initI18n(): Promise<typeof i18n> {
  await i18n
    .use(lazyJsonBackend)
    .use(initReactI18next)
    .init({
      lng: getLanguage(),
      supportedLngs: [...LANGUAGES],
      // Every language has every key (locales.test.ts), so no fallback bundle needs loading.
      fallbackLng: false,
      load: 'currentOnly',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  applyDocumentLanguage(getLanguage());
  subscribePreferences(() => {
    const lng = getLanguage();
    if (i18n.language !== lng) void i18n.changeLanguage(lng);
    applyDocumentLanguage(lng);
  });
  return i18n;
}

const HTML_LANG: Record<TLanguage, string> = { 'zh-TW': 'zh-Hant-TW', ja: 'ja', en: 'en' };

function applyDocumentLanguage(lng: TLanguage): void {
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[lng] ?? HTML_LANG[DEFAULT_LANGUAGE];
}
