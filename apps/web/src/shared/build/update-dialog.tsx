import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** 'system needs update' with a confirm-update button that reloads the application. */
export function UpdateDialog() {
  const { t } = useTranslation('common');
  return (
    <Modal
      open
      title={t('update.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Button type="primary" data-testid="confirm-update" onClick={() => window.location.reload()}>
          {t('update.confirm')}
        </Button>
      }
    >
      <p>{t('update.body')}</p>
    </Modal>
  );
}
