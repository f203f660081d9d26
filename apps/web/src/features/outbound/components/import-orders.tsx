import { outboundRoutes, type TImportResult } from '@wms/contracts';
import { Alert, Checkbox, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ImportButton } from '../../../shared/jobs/import-button';
import { importOrders, refreshAfterImport, usePlatformOptions } from '../api';
import { abnormalText, useOrderLabels } from './labels';

/**
 * Order import (the shared import dialog): choose the channel (its saved column layout is used), upload an .xlsx or
 * CSV, watch the progress bar ("Order data is being imported"), then see what was created, skipped as duplicates, or
 * why the file was refused (row, field, message).
 */
export function ImportOrdersButton() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const platforms = usePlatformOptions();
  const [platformId, setPlatformId] = useState<string | undefined>();
  const [exportAfter, setExportAfter] = useState(false);
  // Without a channel the columns are matched by the suggested mapping: only when the user says so, never silently.
  const [useSuggested, setUseSuggested] = useState(false);
  const noPlatforms = platforms.isSuccess && (platforms.data ?? []).length === 0;

  return (
    <ImportButton
      data-testid="order-import"
      texts={{
        button: t('actions.import'),
        title: t('import.title'),
        hint: t('import.hint'),
        template: t('actions.template'),
        choose: t('actions.chooseFile'),
      }}
      width={760}
      accept=".xlsx,.csv"
      ready={!!platformId || useSuggested}
      fieldLabel={l.field}
      template={{ route: outboundRoutes.importTemplate, fileName: `order-import-template-${l.lang}.xlsx` }}
      start={({ file_base64, filename }) =>
        importOrders({
          file_base64,
          file_name: filename,
          platform_id: platformId ?? null,
          export_after_import: exportAfter,
        })
      }
      progressText={(job) =>
        `${t('common:progress.importingOrders')}${
          job.total === 0 && job.progress > 0 ? ` — ${t('import.counting', { count: job.progress })}` : ''
        }`
      }
      onDone={() => void refreshAfterImport()}
      options={
        <Space orientation="vertical" style={{ width: '100%' }}>
          {noPlatforms ? (
            <Alert
              type="info"
              showIcon
              data-testid="import-no-platforms"
              title={t('import.noPlatforms')}
              description={
                <Link to="/ecommerce-channel" data-testid="import-create-platform">
                  {t('import.createPlatform')}
                </Link>
              }
            />
          ) : null}
          <Space wrap>
            <Select
              allowClear
              style={{ width: 240 }}
              placeholder={t('import.platform')}
              options={platforms.data ?? []}
              value={platformId}
              onChange={setPlatformId}
              data-testid="import-platform"
            />
            <Checkbox
              checked={exportAfter}
              onChange={(e) => setExportAfter(e.target.checked)}
              data-testid="import-export-after"
            >
              {t('import.exportAfter')}
            </Checkbox>
          </Space>
          {platformId ? null : (
            <Alert
              type="warning"
              showIcon
              data-testid="import-no-platform"
              title={t('import.noPlatformChosen')}
              description={
                <Checkbox
                  checked={useSuggested}
                  onChange={(e) => setUseSuggested(e.target.checked)}
                  data-testid="import-use-suggested"
                >
                  {t('import.useSuggested')}
                </Checkbox>
              }
            />
          )}
        </Space>
      }
      result={(job) => {
        const result = job.result as TImportResult;
        return (
          <Alert
            type={result.shortages.length ? 'warning' : 'success'}
            showIcon
            data-testid="import-done"
            title={t('import.done', { created: result.created, skipped: result.skipped_duplicates, rows: result.rows })}
            description={
              result.shortages.length ? (
                <Space orientation="vertical">
                  <span>{t('import.shortages', { exported: result.exported })}</span>
                  {result.shortages.slice(0, 20).map((s) => (
                    <span key={`${s.row}-${s.order}`}>
                      {t('import.shortageRow', { row: s.row, order: s.order })} {abnormalText(s, l.lang)}
                    </span>
                  ))}
                </Space>
              ) : result.exported ? (
                t('import.exported', { count: result.exported })
              ) : undefined
            }
          />
        );
      }}
    />
  );
}
