import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/**
 * A plain titled box with antd Card's look (border, radius, head, body padding; `size="small"`, `hoverable`; for
 * Card's `loading`, put a Placeholder inside). antd's Card imports Tabs (11 kB gzip) and Skeleton: the public pages
 * and the dashboard, the first screens a user sees, use this instead.
 */
export function Panel({
  title,
  children,
  testId,
  size,
  hoverable,
  style,
}: {
  title?: ReactNode;
  children: ReactNode;
  testId?: string;
  size?: 'small';
  /** antd Card's hover shadow (the box is inside a link). */
  hoverable?: boolean;
  style?: CSSProperties;
}) {
  const { token } = theme.useToken();
  const small = size === 'small';
  const pad = small ? 12 : token.paddingLG;
  return (
    <section
      data-testid={testId}
      className={hoverable ? 'wms-panel wms-panel-hoverable' : 'wms-panel'}
      style={
        {
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          color: token.colorText,
          '--wms-panel-border': token.colorBorderSecondary,
          // antd's card shadow: an alias token its types do not list.
          '--wms-panel-shadow': (token as unknown as { boxShadowCard?: string }).boxShadowCard ?? token.boxShadow,
          '--wms-panel-motion': token.motionDurationMid,
          ...style,
        } as CSSProperties
      }
    >
      {title ? (
        <h2
          style={{
            // antd Card's head: 56 px (small: 38 px) high, the title centred in it.
            boxSizing: 'border-box',
            display: 'flex',
            alignItems: 'center',
            minHeight: small
              ? token.fontSize * token.lineHeight + token.paddingXS * 2
              : token.fontSizeLG * token.lineHeightLG + token.padding * 2,
            margin: 0,
            padding: `0 ${pad}px`,
            fontSize: small ? token.fontSize : token.fontSizeLG,
            lineHeight: small ? token.lineHeight : token.lineHeightLG,
            fontWeight: token.fontWeightStrong,
            color: token.colorTextHeading,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {title}
        </h2>
      ) : null}
      <div style={{ padding: pad }}>{children}</div>
    </section>
  );
}

/** Secondary explanatory text (instead of Typography on the light public pages). */
export function Hint({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <p style={{ color: token.colorTextSecondary, marginTop: 0, marginBottom: 16 }}>{children}</p>;
}
