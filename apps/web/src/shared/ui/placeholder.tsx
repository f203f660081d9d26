import { theme } from 'antd';
import type { CSSProperties } from 'react';

/** Grey lines while content loads (antd Skeleton's active look: a title and three lines). */
export default function Placeholder({ rows = [38, 100, 100, 61] }: { rows?: number[] }) {
  const { token } = theme.useToken();
  return (
    <div
      aria-busy="true"
      style={
        {
          display: 'grid',
          gap: token.marginSM,
          '--wms-skeleton-from': token.colorFillContent,
          '--wms-skeleton-to': token.colorFill,
        } as CSSProperties
      }
    >
      {rows.map((width, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder lines
          key={i}
          className="wms-skeleton"
          style={{ width: `${width}%`, height: 16, borderRadius: token.borderRadiusSM, marginTop: i === 1 ? 12 : 0 }}
        />
      ))}
    </div>
  );
}
