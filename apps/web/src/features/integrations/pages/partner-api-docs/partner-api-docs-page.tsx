import { ApiOutlined, KeyOutlined } from '@ant-design/icons';
import { Button, Card, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MarkdownDocument } from '../../../../shared/markdown/markdown-document';
import '../../i18n';
import { REFERENCE_BASE, REFERENCE_DOCS } from '../../reference/docs';

/**
 * /partner-api-docs: the partner API guide for a seller's developers (authentication, limits, idempotency, each
 * /api/v1 endpoint with curl, errors, signed callbacks and retries), in the user's language; the field-by-field
 * reference is the OpenAPI document on /api-docs.
 */
export default function PartnerApiDocsPage() {
  const { t } = useTranslation(['integrations', 'nav']);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="partner-api-docs">
      <Card size="small">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text>
            {t('reference.baseUrl')}{' '}
            <Typography.Text code copyable data-testid="partner-api-base-url">
              {`${window.location.origin}/api/v1/`}
            </Typography.Text>
          </Typography.Text>
          <Space wrap>
            <Link to="/module-api-setup">
              <Button type="primary" icon={<KeyOutlined />}>
                {t('reference.toSetup')}
              </Button>
            </Link>
            <Link to="/api-docs" title={t('reference.openApi')}>
              <Button icon={<ApiOutlined />}>{t('actions.openApi')}</Button>
            </Link>
          </Space>
        </Space>
      </Card>
      <Card>
        <MarkdownDocument
          docs={REFERENCE_DOCS}
          base={REFERENCE_BASE}
          page="partner-api"
          missing={<Result status="404" title={t('nav:screens.partner-api-docs' as never)} />}
        />
      </Card>
    </Space>
  );
}
