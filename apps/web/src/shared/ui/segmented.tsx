import { theme } from 'antd';
import { type CSSProperties, useId } from 'react';

/**
 * antd's small Segmented, as plain radio buttons with its look (track, raised selected item, hover, focus ring): the
 * language switch of every page header, the public pages' included. antd's Segmented with its sliding thumb is
 * 3.7 kB gzip of what /login loads. Native radios of one name: Tab reaches the group, the arrow keys choose.
 */
export function Segmented<T extends string>({
  value,
  options,
  onChange,
  testId,
  ariaLabel,
}: {
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (value: T) => void;
  testId?: string;
  ariaLabel?: string;
}) {
  const { token } = theme.useToken();
  const name = useId();
  const vars = {
    '--wms-seg-track': token.colorBgLayout,
    '--wms-seg-color': token.colorTextLabel,
    '--wms-seg-hover': token.colorText,
    '--wms-seg-hover-bg': token.colorFillSecondary,
    '--wms-seg-active-bg': token.colorFill,
    '--wms-seg-selected-bg': token.colorBgElevated,
    '--wms-seg-shadow': token.boxShadowTertiary,
    '--wms-seg-focus': token.colorPrimaryBorder,
    '--wms-seg-motion': token.motionDurationMid,
    padding: token.lineWidthBold,
    borderRadius: token.borderRadiusSM,
    fontSize: token.fontSize,
  } as CSSProperties;
  return (
    <div role="radiogroup" aria-label={ariaLabel} data-testid={testId} className="wms-seg" style={vars}>
      {options.map((o) => (
        <label
          key={o.value}
          className={o.value === value ? 'wms-seg-item wms-seg-selected' : 'wms-seg-item'}
          style={{ borderRadius: token.borderRadiusXS }}
        >
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={o.value === value}
            onChange={() => onChange(o.value)}
          />
          <span
            title={o.label}
            style={{
              minHeight: token.controlHeightSM - token.lineWidthBold * 2,
              lineHeight: `${token.controlHeightSM - token.lineWidthBold * 2}px`,
              padding: `0 ${token.controlPaddingHorizontalSM - token.lineWidth}px`,
            }}
          >
            {o.label}
          </span>
        </label>
      ))}
    </div>
  );
}
