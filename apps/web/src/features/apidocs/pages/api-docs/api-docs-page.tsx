import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import 'swagger-ui-dist/swagger-ui.css';
import { userSession } from '../../../../shared/auth/session';
import { errorText } from '../../../../shared/forms/error-text';
import { getLanguage } from '../../../../shared/preferences/preferences';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { useOpenApiDocument } from '../../api';
import '../../i18n';
import { loadSwaggerUi } from '../../swagger-ui';
import './api-docs.css';

/** Save the document as a file (for code generators and API clients). */
function download(document: object): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
  const a = window.document.createElement('a');
  a.href = url;
  a.download = 'openapi.json';
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * /api-docs: the OpenAPI reference of every contract route, rendered by Swagger UI from GET /api/openapi.json
 * (fetched with the session's bearer token). "Try it out" calls the API as the logged-in user.
 */
export default function ApiDocsPage() {
  const { t } = useTranslation('apidocs');
  const doc = useOpenApiDocument();
  const host = useRef<HTMLDivElement>(null);
  const [uiError, setUiError] = useState<unknown>(null);

  useEffect(() => {
    const node = host.current;
    if (!doc.data || !node) return;
    let live = true;
    const spec = doc.data;
    loadSwaggerUi().then((SwaggerUI) => {
      if (!live) return;
      SwaggerUI({
        domNode: node,
        spec,
        deepLinking: false,
        docExpansion: 'none',
        defaultModelsExpandDepth: -1,
        displayOperationId: true,
        filter: true,
        // No call to the public validator service: the page talks to this server only.
        validatorUrl: null,
        requestInterceptor: (request) => {
          const token = userSession.accessToken();
          if (token && !request.headers.Authorization) request.headers.Authorization = `Bearer ${token}`;
          request.headers['Accept-Language'] = getLanguage();
          return request;
        },
      });
    }, setUiError);
    return () => {
      live = false;
      node.replaceChildren();
    };
  }, [doc.data]);

  const error = doc.error ?? uiError;
  if (error) return <Alert type="error" showIcon title={t('loadFailed', { message: errorText(error) })} />;
  if (!doc.data) return <PageLoading />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="api-docs">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 900 }}>
          {t('intro')}
        </Typography.Paragraph>
        <Button icon={<DownloadOutlined />} onClick={() => download(doc.data)}>
          {t('download')}
        </Button>
      </Space>
      <div ref={host} className="api-docs-host" />
    </Space>
  );
}
