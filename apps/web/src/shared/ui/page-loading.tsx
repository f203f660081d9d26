import { Spin } from 'antd';

/** Shown while a screen's code, translations or guard are loading. */
export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, width: '100%' }}>
      <Spin size="large" />
    </div>
  );
}
