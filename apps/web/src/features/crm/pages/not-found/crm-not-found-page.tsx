import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** /crm/404: unknown CRM paths land here. */
export default function CrmNotFoundPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.body')}
      extra={
        <Button type="primary" onClick={() => void navigate('/crm/dashboard')}>
          {t('actions.backHome')}
        </Button>
      }
    />
  );
}
