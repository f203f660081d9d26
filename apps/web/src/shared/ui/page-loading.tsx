import { theme } from 'antd';
import { useHoldScansWhileLoading } from './scan-buffer';

/**
 * Shown while a screen's code, translations or guard are loading: a turning arc drawn in SVG (antd's Spin was 3 kB
 * gzip of what /login loads, for this alone).
 */
export function PageLoading() {
  const { token } = theme.useToken();
  // While this shows, the page is hidden: what a scanner types waits for it (scan-buffer.ts).
  useHoldScansWhileLoading();
  return (
    <div
      aria-busy="true"
      role="status"
      style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, width: '100%' }}
    >
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" data-testid="page-loading">
        <circle cx="16" cy="16" r="12" fill="none" stroke={token.colorFillSecondary} strokeWidth="4" />
        <path
          d="M16 4 a12 12 0 0 1 12 12"
          fill="none"
          stroke={token.colorPrimary}
          strokeWidth="4"
          strokeLinecap="round"
        >
          <animateTransform
            attributeName="transform"
            type="rotate"
            from="0 16 16"
            to="360 16 16"
            dur="0.9s"
            repeatCount="indefinite"
          />
        </path>
      </svg>
    </div>
  );
}
