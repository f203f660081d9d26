import { DEFAULT_LANGUAGE, LANGUAGES, THEMES, type TLanguage } from '@wms/contracts';

export type TTheme = (typeof THEMES)[number];

const LANGUAGE_KEY = 'wms.language';
const THEME_KEY = 'wms.theme';

export interface TPreferences {
  language: TLanguage;
  theme: TTheme;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function read(): TPreferences {
  const s = storage();
  const language = s?.getItem(LANGUAGE_KEY);
  const theme = s?.getItem(THEME_KEY);
  return {
    language: (LANGUAGES as readonly string[]).includes(language ?? '') ? (language as TLanguage) : DEFAULT_LANGUAGE,
    theme: (THEMES as readonly string[]).includes(theme ?? '') ? (theme as TTheme) : 'light',
  };
}

let current: TPreferences = read();
const listeners = new Set<() => void>();

/** Language and theme of this browser (localStorage); the profile keeps a copy (see use-preference-sync.ts). */
export function getPreferences(): TPreferences {
  return current;
}

export function getLanguage(): TLanguage {
  return current.language;
}

export function subscribePreferences(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Change and persist language and/or theme; unchanged values do not notify. */
export function setPreferences(patch: Partial<TPreferences>): void {
  const next = { ...current, ...patch };
  if (next.language === current.language && next.theme === current.theme) return;
  current = next;
  const s = storage();
  s?.setItem(LANGUAGE_KEY, next.language);
  s?.setItem(THEME_KEY, next.theme);
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') {
  // Another tab changed them: follow.
  window.addEventListener('storage', (e) => {
    if (e.key !== LANGUAGE_KEY && e.key !== THEME_KEY) return;
    const next = read();
    if (next.language !== current.language || next.theme !== current.theme) {
      current = next;
      for (const l of listeners) l();
    }
  });
}
