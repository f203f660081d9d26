import type { ComponentType } from 'react';
import type { TScreenPath } from './route-table';

/** A lazily loaded screen: a module whose default export is the page component. */
export type TScreenLoader = () => Promise<{ default: ComponentType }>;
export type TScreenMap = Partial<Record<TScreenPath, TScreenLoader>>;

/**
 * Each feature registers its finished screens in `features/<context>/screens.ts`:
 *
 *   export default defineScreens({ '/product': () => import('./pages/product-list/product-list-page') });
 *
 * The key must be a path of the spec's route table (route-table.ts); the import keeps every screen code-split.
 */
export function defineScreens(map: TScreenMap): TScreenMap {
  return map;
}

const modules = import.meta.glob<{ default: TScreenMap }>('../features/*/screens.ts', { eager: true });

/** All registered screens; a path registered twice is a mistake and fails loudly. */
export function collectScreens(mods: Record<string, { default: TScreenMap }> = modules): TScreenMap {
  const all: TScreenMap = {};
  for (const [file, mod] of Object.entries(mods)) {
    for (const [path, loader] of Object.entries(mod.default) as Array<[TScreenPath, TScreenLoader]>) {
      if (all[path]) throw new Error(`screen ${path} is registered twice (again in ${file})`);
      all[path] = loader;
    }
  }
  return all;
}

export const SCREENS: TScreenMap = collectScreens();
