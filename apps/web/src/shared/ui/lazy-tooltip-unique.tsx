import { lazy, type ReactNode, Suspense } from 'react';

const UniqueProvider = lazy(() => import('antd/es/tooltip/UniqueProvider'));

/**
 * Stand-in for the Tooltip UniqueProvider antd's ConfigProvider imports for `tooltip.unique` (which this app does not
 * set): vite.config.ts points that import here, so every page does not load the popup machinery with the provider.
 */
export default function LazyUniqueProvider({ children }: { children?: ReactNode }) {
  return (
    <Suspense fallback={children}>
      <UniqueProvider>{children}</UniqueProvider>
    </Suspense>
  );
}
