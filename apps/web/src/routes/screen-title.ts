import { i18n } from '../i18n/i18n';
import { screenKey, type TScreenPath } from './route-table';

/**
 * The translated title of a spec screen (nav:screens.<key>). Callers render inside a component that uses the
 * `nav` namespace (useTranslation([..., 'nav'])), so it is loaded and the component follows language changes.
 */
export function screenTitle(path: TScreenPath): string {
  return i18n.t(`nav:screens.${screenKey(path)}` as never);
}
