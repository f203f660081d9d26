import { theme } from 'antd';
import { type CSSProperties, type ReactNode, useState } from 'react';

/**
 * antd's Switch (default size, icons inside) as one plain button with role "switch": the theme switch of every page
 * header, the public pages' included (antd's Switch is 2.6 kB gzip of what /login loads). Space and Enter toggle it.
 */
export function Switch({
  checked,
  onChange,
  checkedChildren,
  unCheckedChildren,
  testId,
  ariaLabel,
  title,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  checkedChildren?: ReactNode;
  unCheckedChildren?: ReactNode;
  testId?: string;
  ariaLabel?: string;
  title?: string;
}) {
  const { token } = theme.useToken();
  // antd's click wave: a ring that grows out of the switch and fades (restarted by a new key on every click).
  const [waves, setWaves] = useState(0);
  const height = token.fontSize * token.lineHeight;
  const vars = {
    '--wms-switch-off': token.colorTextQuaternary,
    '--wms-switch-off-hover': token.colorTextTertiary,
    '--wms-switch-on': token.colorPrimary,
    '--wms-switch-on-hover': token.colorPrimaryHover,
    '--wms-switch-focus': token.colorPrimaryBorder,
    '--wms-switch-motion': token.motionDurationMid,
    '--wms-switch-wave': checked ? token.colorPrimary : token.colorTextQuaternary,
    '--wms-switch-handle': `${height - 4}px`,
    minWidth: (height - 4) * 2 + 8,
    height,
    color: token.colorTextLightSolid,
    fontSize: token.fontSizeSM,
  } as CSSProperties;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={ariaLabel}
      title={title}
      data-testid={testId}
      className={checked ? 'wms-switch wms-switch-checked' : 'wms-switch'}
      style={vars}
      onClick={() => {
        setWaves((n) => n + 1);
        onChange(!checked);
      }}
    >
      <span className="wms-switch-inner">{checked ? checkedChildren : unCheckedChildren}</span>
      <span className="wms-switch-handle" />
      {waves > 0 ? <span key={waves} className="wms-switch-wave" /> : null}
    </button>
  );
}
