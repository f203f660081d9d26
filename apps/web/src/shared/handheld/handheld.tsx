import { Typography } from 'antd';
import { type ReactNode, useSyncExternalStore } from 'react';

/** A phone or handheld: the floor screens switch to their handheld presentation at this width and below. */
export const HANDHELD_QUERY = '(max-width: 600px)';

const subscribe = (notify: () => void) => {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
  const list = window.matchMedia(HANDHELD_QUERY);
  list.addEventListener('change', notify);
  return () => list.removeEventListener('change', notify);
};
const snapshot = () =>
  typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(HANDHELD_QUERY).matches;

/** Whether the screen is a phone or handheld (≤ 600 px wide); follows rotation and resizing. */
export function useHandheld(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}

/**
 * The frame of a floor screen (receive, put away, transfer, pack, ship, count). On a desktop it adds nothing; on a
 * handheld (≤ 600 px) its class `floor-screen` makes the controls inside big touch targets (48 px, larger type) and
 * lays them out in one column (styles.css).
 */
export function FloorScreen(props: { children: ReactNode; 'data-testid'?: string }) {
  const handheld = useHandheld();
  return (
    <div
      className={handheld ? 'floor-screen floor-screen-handheld' : 'floor-screen'}
      data-handheld={handheld ? 'true' : 'false'}
      data-testid={props['data-testid']}
    >
      {props.children}
    </div>
  );
}

/**
 * What the operator does now, readable at arm's length on a handheld: the step ("Scan the location"), and in large
 * type what is expected (the product, the location, the order). Shown on handhelds only; a desktop screen already
 * shows the same in its form.
 */
export function ScanStep(props: {
  /** The instruction for the next scan. */
  step: string;
  /** The expected item or location (large type), when the screen knows it. */
  target?: ReactNode;
  /** A second line under the target (the product's name, the count so far). */
  detail?: ReactNode;
  /** Where the step stands, e.g. "2/4". */
  progress?: string;
}) {
  const handheld = useHandheld();
  if (!handheld) return null;
  return (
    <div className="scan-step" data-testid="scan-step" role="status" aria-live="polite">
      <div className="scan-step-head">
        <span data-testid="scan-step-text">{props.step}</span>
        {props.progress ? <span className="scan-step-progress">{props.progress}</span> : null}
      </div>
      {props.target ? (
        <div className="scan-step-target" data-testid="scan-step-target">
          {props.target}
        </div>
      ) : null}
      {props.detail ? (
        <Typography.Text type="secondary" className="scan-step-detail">
          {props.detail}
        </Typography.Text>
      ) : null}
    </div>
  );
}
