import type { TApiKeyIssued } from '@wms/contracts';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n';

/**
 * The key and signing secret of a freshly enabled setting, shown this once (spec §8): the dialog closes only by
 * the explicit "I have stored them" button, so a stray click or Escape cannot lose the key.
 */
export function KeyIssuedModal(props: { issued: TApiKeyIssued | null; onClose: () => void }) {
  const { t } = useTranslation('integrations');
  const issued = props.issued;
  return (
    <Modal
      open={issued !== null}
      title={t('setup.issuedTitle')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={720}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={props.onClose} data-testid="key-issued-done" autoFocus>
          {t('actions.copiedAll')}
        </Button>
      }
    >
      {issued ? (
        <div data-testid="key-issued">
          <Alert type="warning" showIcon title={t('setup.issuedWarning')} style={{ marginBottom: 16 }} />
          <Descriptions bordered column={1} size="small">
            <Descriptions.Item label={t('setup.apiKey')}>
              <Typography.Text
                code
                copyable={{ text: issued.api_key, tooltips: [t('setup.apiKey'), t('actions.copied')] }}
                data-testid="issued-api-key"
                style={{ wordBreak: 'break-all' }}
              >
                {issued.api_key}
              </Typography.Text>
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                {t('setup.keyHeader')}
              </Typography.Paragraph>
            </Descriptions.Item>
            <Descriptions.Item label={t('setup.signingSecret')}>
              <Typography.Text
                code
                copyable={{ text: issued.signing_secret, tooltips: [t('setup.signingSecret'), t('actions.copied')] }}
                data-testid="issued-signing-secret"
                style={{ wordBreak: 'break-all' }}
              >
                {issued.signing_secret}
              </Typography.Text>
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                {t('setup.issuedSecretHint')}
              </Typography.Paragraph>
            </Descriptions.Item>
          </Descriptions>
        </div>
      ) : null}
    </Modal>
  );
}
