import { i18n } from '../i18n/i18n';
import { PUBLIC_PATHS, STORE_PUBLIC_PATHS, screenKey, type TScreenPath } from './route-table';

/**
 * The screens outside every area (login, register, the member login…): their titles are in `common`
 * (common:screens.<key>), so the public pages, /login above all, do without the `nav` namespace.
 */
const IN_COMMON: ReadonlySet<TScreenPath> = new Set([...PUBLIC_PATHS, ...STORE_PUBLIC_PATHS]);

/** The namespaces a component showing `path`'s title uses (useTranslation), so they are loaded and it follows. */
export function titleNamespaces(path: TScreenPath | null): ['common'] | ['common', 'nav'] {
  return path && IN_COMMON.has(path) ? ['common'] : ['common', 'nav'];
}

/**
 * The translated title of a spec screen (nav:screens.<key>, a public page's common:screens.<key>). Callers render
 * inside a component that uses the namespaces of titleNamespaces (useTranslation([..., 'nav'])), so they are loaded
 * and the component follows language changes.
 */
export function screenTitle(path: TScreenPath): string {
  return i18n.t(`${IN_COMMON.has(path) ? 'common' : 'nav'}:screens.${screenKey(path)}` as never);
}
