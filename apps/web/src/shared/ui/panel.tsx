import { theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * A plain titled box for the public pages. antd's Card pulls in Tabs and the popup machinery, which the login
 * page does not need; this keeps its JavaScript small and looks the same.
 */
export function Panel({ title, children, testId }: { title?: ReactNode; children: ReactNode; testId?: string }) {
  const { token } = theme.useToken();
  return (
    <section
      data-testid={testId}
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
      }}
    >
      {title ? (
        <h2
          style={{
            margin: 0,
            padding: '16px 24px',
            fontSize: token.fontSizeLG,
            fontWeight: 600,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {title}
        </h2>
      ) : null}
      <div style={{ padding: 24 }}>{children}</div>
    </section>
  );
}

/** Secondary explanatory text (instead of Typography on the light public pages). */
export function Hint({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <p style={{ color: token.colorTextSecondary, marginTop: 0, marginBottom: 16 }}>{children}</p>;
}
