import { Alert } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '../preferences/preferences';
import { PageLoading } from '../ui/page-loading';
import { pickDocument, type TDocLoader } from './localized';
import { Markdown } from './markdown';

/** A Markdown document in the user's language (zh-TW when missing), loaded on demand. */
export function MarkdownDocument(props: {
  docs: Record<string, TDocLoader>;
  base: string;
  page: string;
  missing: React.ReactNode;
}) {
  const { t, i18n } = useTranslation('common');
  const language = (i18n.language as ReturnType<typeof getLanguage>) || getLanguage();
  const picked = pickDocument(props.docs, props.base, props.page, language);
  const [source, setSource] = useState<{ key: string; text: string } | null>(null);
  const key = picked ? `${picked.language}/${props.page}` : '';

  useEffect(() => {
    if (!picked) return;
    let live = true;
    void picked.load().then((text) => {
      if (live) setSource({ key, text });
    });
    return () => {
      live = false;
    };
  }, [key, picked]);

  if (!picked) return <>{props.missing}</>;
  if (source?.key !== key) return <PageLoading />;
  return (
    <>
      {picked.fallback ? (
        <Alert
          type="info"
          showIcon
          title={t('document.fallback')}
          style={{ marginBottom: 16 }}
          data-testid="doc-fallback"
        />
      ) : null}
      <Markdown source={source.text} />
    </>
  );
}
