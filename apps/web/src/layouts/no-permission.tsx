import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** "No permission" of the main area (antd Result with its illustration): main-layout.tsx loads it when it shows. */
export default function NoPermission() {
  const { t } = useTranslation('nav');
  return (
    <Result
      status="403"
      title={t('noPermission.title')}
      subTitle={t('noPermission.text')}
      data-testid="no-permission"
    />
  );
}
