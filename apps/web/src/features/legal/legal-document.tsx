import { Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { MarkdownDocument } from '../../shared/markdown/markdown-document';

const docs = import.meta.glob<string>('./content/*/*.md', { query: '?raw', import: 'default' });

/** Terms pages are Markdown per language under content/<lng>/, like the manual. */
export function LegalDocument({ page }: { page: 'privacy' | 'service-rule' }) {
  const { t } = useTranslation('common');
  return (
    <Card style={{ maxWidth: 920 }}>
      <MarkdownDocument
        docs={docs}
        base="./content"
        page={page}
        missing={<Result status="404" title={t('notFound.title')} />}
      />
    </Card>
  );
}
