import type { TLanguage } from '@wms/contracts';
import { Input, List, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MANUAL_BASE, MANUAL_DOCS, manualFile, manualHref } from '../../../manual/manual-pages';
import { MANUAL_PAGES, type TManualPage } from '../../../routes/route-table';
import { pickDocument } from '../../../shared/markdown/localized';
import '../i18n';

interface THit {
  page: TManualPage;
  title: string;
  snippet: string;
}

/** Search the user manual (in the chosen language, else zh-TW) before asking the staff: a line of each matching page. */
async function searchManual(term: string, language: TLanguage): Promise<THit[]> {
  const needle = term.trim().toLowerCase();
  if (!needle) return [];
  const hits: THit[] = [];
  for (const page of MANUAL_PAGES) {
    const doc = pickDocument(MANUAL_DOCS, MANUAL_BASE, manualFile(page), language);
    if (!doc) continue;
    const text = await doc.load();
    const lines = text.split('\n');
    const line = lines.find((l) => l.toLowerCase().includes(needle));
    if (!line) continue;
    const title = (lines.find((l) => l.startsWith('# ')) ?? page).replace(/^#\s*/, '');
    hits.push({
      page,
      title,
      snippet: line
        .replace(/[#*_`>]/g, '')
        .trim()
        .slice(0, 160),
    });
    if (hits.length >= 10) break;
  }
  return hits;
}

export function ManualSearch() {
  const { t, i18n } = useTranslation('support');
  const [hits, setHits] = useState<THit[] | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div style={{ maxWidth: 720, marginBottom: 24 }}>
      <Input.Search
        allowClear
        enterButton
        loading={busy}
        placeholder={t('desk.help.manual')}
        data-testid="manual-search"
        onSearch={async (term) => {
          setBusy(true);
          try {
            setHits(term.trim() ? await searchManual(term, i18n.language as TLanguage) : null);
          } finally {
            setBusy(false);
          }
        }}
      />
      {hits ? (
        <List
          size="small"
          dataSource={hits}
          locale={{ emptyText: t('desk.help.noHits') }}
          data-testid="manual-hits"
          renderItem={(h) => (
            <List.Item>
              <List.Item.Meta
                title={<Link to={manualHref(h.page)}>{h.title}</Link>}
                description={<Typography.Text type="secondary">{h.snippet}</Typography.Text>}
              />
            </List.Item>
          )}
        />
      ) : null}
    </div>
  );
}
