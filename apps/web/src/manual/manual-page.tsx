import { Button, Card, Descriptions, List, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useMatches, useNavigate } from 'react-router';
import type { TManualHandle, TManualPage } from '../routes/route-table';
import { MY_BUILD_ID } from '../shared/build/build-check';
import { MarkdownDocument } from '../shared/markdown/markdown-document';
import { Flowchart } from './flowchart';
import { MANUAL_BASE, MANUAL_DOCS, MANUAL_TOC, manualFile, manualHref } from './manual-pages';

/** One page of the user manual: its Markdown in the user's language (zh-TW fallback), plus page extras. */
export function ManualPage() {
  const { t } = useTranslation('manual');
  const navigate = useNavigate();
  const handle = useMatches().at(-1)?.handle as TManualHandle | undefined;
  const page = handle?.manual;
  if (page === null || page === undefined) {
    return (
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.body')}
        data-testid="manual-not-found"
        extra={
          <Button type="primary" onClick={() => void navigate('/user-manual')}>
            {t('notFound.toIndex')}
          </Button>
        }
      />
    );
  }
  return (
    <Card data-testid={`manual-${page || 'index'}`}>
      <MarkdownDocument
        docs={MANUAL_DOCS}
        base={MANUAL_BASE}
        page={manualFile(page)}
        missing={<Result status="info" title={t(`pages.${page}` as never)} subTitle={t('pending')} />}
      />
      {page === 'flowchart' ? <Flowchart /> : null}
      {page === 'version' ? <CurrentVersion /> : null}
      {page === '' ? <Contents /> : null}
    </Card>
  );
}

function CurrentVersion() {
  const { t } = useTranslation('manual');
  return (
    <Descriptions bordered size="small" column={1} title={t('version.current')} style={{ marginTop: 24 }}>
      <Descriptions.Item label={t('version.build')}>{MY_BUILD_ID}</Descriptions.Item>
    </Descriptions>
  );
}

function Contents() {
  const { t } = useTranslation('manual');
  const label = (p: TManualPage) => t(`pages.${p || 'index'}` as never);
  return (
    <div style={{ marginTop: 24 }} data-testid="manual-contents">
      {MANUAL_TOC.map((g) => (
        <List
          key={g.group}
          size="small"
          header={<strong>{t(`groups.${g.group}` as never)}</strong>}
          dataSource={g.pages.filter((p) => p !== '')}
          renderItem={(p) => (
            <List.Item>
              <Link to={manualHref(p)}>{label(p)}</Link>
            </List.Item>
          )}
        />
      ))}
    </div>
  );
}
