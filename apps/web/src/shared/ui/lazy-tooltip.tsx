import type { TooltipProps } from 'antd';
import { lazy, Suspense } from 'react';

const Tooltip = lazy(() => import('antd/es/tooltip'));

/**
 * Stand-in for antd's Tooltip where antd itself imports it for an optional prop: Segmented (`options[].tooltip`) and
 * the Form label (`tooltip`). vite.config.ts points those imports here, so a page without tooltips (the login page)
 * does not load the Tooltip and its popup machinery; one that has them shows the child at once and the tooltip as soon
 * as its code is there.
 */
export default function LazyTooltip(props: TooltipProps) {
  return (
    <Suspense fallback={props.children}>
      <Tooltip {...props} />
    </Suspense>
  );
}
