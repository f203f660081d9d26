import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** /store/404: the portal without a member session (or an unknown store path). */
export default function StoreNotFoundPage() {
  const { t } = useTranslation('store');
  return <Result status="404" title={t('notFound.title')} subTitle={t('notFound.body')} data-testid="store-404" />;
}
