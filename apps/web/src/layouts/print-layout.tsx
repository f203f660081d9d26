import { Suspense } from 'react';
import { Outlet, useSearchParams } from 'react-router';
import { PageLoading } from '../shared/ui/page-loading';
import './print.css';

/** Paper sizes a print screen can ask for (spec §9: picking lists in A4 or A5). */
export type TPaper = 'A4' | 'A5';

/** Paper of the current print screen: `?paper=A5`, or A4. Print screens may also pass their own. */
export function usePaper(): TPaper {
  const [params] = useSearchParams();
  return params.get('paper') === 'A5' ? 'A5' : 'A4';
}

/** Full-page print and label screens: no menu, no header; print CSS sets the page size. */
export function PrintLayout() {
  const paper = usePaper();
  return (
    <div className="print-root" data-paper={paper} data-testid="print-layout">
      <style>{`@page { size: ${paper}; margin: 0; }`}</style>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
