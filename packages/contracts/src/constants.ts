/**
 * Plain constants, apart from zod and the error catalogue: the web app's boot path (login page, session, preferences)
 * uses them without loading either. errors.ts and auth.ts re-export them (the package index exports them from there).
 */
export const LANGUAGES = ['zh-TW', 'ja', 'en'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = 'zh-TW';

export const ROLES = ['CUSTOMER', 'EMPLOYEE'] as const;
export const THEMES = ['light', 'dark'] as const;
/** Where a user's labels print by default: an A4 label sheet, or a thermal roll (label printer). */
export const LABEL_FORMATS = ['sheet', 'thermal'] as const;
export type TLabelFormat = (typeof LABEL_FORMATS)[number];
