import { Alert, Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../../shared/api/client';
import { errorText } from '../../../../shared/forms/error-text';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { useSellerCatalog, useSellerPurchase } from '../../api';
import { DirectPurchase } from '../../components/direct-purchase';

/** /direct-purchase: the seller orders its own listed products (the main area's direct-purchase menu). */
export default function DirectPurchasePage() {
  const { t } = useTranslation('store');
  const navigate = useNavigate();
  const catalog = useSellerCatalog();
  const purchase = useSellerPurchase();
  if (catalog.isPending) return <PageLoading />;
  if (catalog.isError) {
    const noStore = catalog.error instanceof ApiError && catalog.error.code === 'STORE_NOT_CREATED';
    return (
      <Alert
        type={noStore ? 'info' : 'error'}
        showIcon
        title={errorText(catalog.error)}
        action={
          noStore ? <Button onClick={() => void navigate('/store-admin')}>{t('members.goAdmin')}</Button> : undefined
        }
      />
    );
  }
  return (
    <Card title={t('purchase.title', { store: catalog.data.store.name })}>
      <DirectPurchase catalog={catalog.data} onSubmit={(body) => purchase.mutateAsync(body)} />
    </Card>
  );
}
