import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  ERROR_CATALOGUE,
  errorMessage,
  outboundRoutes,
  type TErrorCode,
  type TImportResult,
  type TImportRowError,
  type TJob,
} from '@wms/contracts';
import { Alert, Button, Checkbox, Modal, Progress, Select, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../shared/download';
import { errorText } from '../../../shared/forms/error-text';
import { getLanguage } from '../../../shared/preferences/preferences';
import { fileToBase64 } from '../../../shared/upload';
import { runImport, usePlatformOptions } from '../api';
import { abnormalText, useOrderLabels } from './labels';

function jobErrorText(error: TJob['error']): string {
  const code = error?.code ?? 'INTERNAL_ERROR';
  const known = Object.hasOwn(ERROR_CATALOGUE, code) ? (code as TErrorCode) : 'INTERNAL_ERROR';
  return errorMessage(known, getLanguage(), error?.params ?? {});
}

/**
 * Order import: choose the channel (its saved column layout is used), upload an .xlsx or CSV, watch the progress bar
 * ("Order data is being imported"), then see what was created, skipped as duplicates, or why the file was refused
 * (row, field, message).
 */
export function ImportOrdersModal(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const platforms = usePlatformOptions();
  const [platformId, setPlatformId] = useState<string | undefined>();
  const [exportAfter, setExportAfter] = useState(false);
  const [job, setJob] = useState<TJob | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    setBusy(true);
    setError(null);
    setJob(null);
    try {
      const file_base64 = await fileToBase64(file);
      await runImport(
        { file_base64, file_name: file.name, platform_id: platformId ?? null, export_after_import: exportAfter },
        setJob,
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const result = job?.state === 'succeeded' ? (job.result as TImportResult) : null;
  const rowErrors =
    (job?.state === 'failed' ? (job.error?.params?.errors as TImportRowError[] | undefined) : undefined) ?? [];
  const percent = job && job.total > 0 ? Math.round((job.progress / job.total) * 100) : 0;
  return (
    <Modal
      open={props.open}
      title={t('import.title')}
      onCancel={props.onClose}
      footer={null}
      width={760}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('import.hint')}</Typography.Paragraph>
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
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              downloadFile(outboundRoutes.importTemplate, `order-import-template-${l.lang}.xlsx`, {}).catch((e) =>
                setError(errorText(e)),
              )
            }
          >
            {t('actions.template')}
          </Button>
          <Upload
            accept=".xlsx,.csv"
            showUploadList={false}
            disabled={busy}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={busy} data-testid="import-choose">
              {t('actions.chooseFile')}
            </Button>
          </Upload>
        </Space>
        {busy && job ? (
          <div data-testid="import-progress">
            <Typography.Text>
              {t('common:progress.importingOrders')}
              {job.total === 0 && job.progress > 0 ? ` — ${t('import.counting', { count: job.progress })}` : ''}
            </Typography.Text>
            <Progress percent={percent} status="active" />
          </div>
        ) : null}
        {error ? <Alert type="error" showIcon title={error} /> : null}
        {result ? (
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
        ) : null}
        {job?.state === 'failed' ? (
          <Alert
            type="error"
            showIcon
            data-testid="import-rejected"
            title={
              job.error?.code === 'IMPORT_REJECTED'
                ? t('import.rejected', { count: Number(job.error.params?.count ?? 0) })
                : jobErrorText(job.error)
            }
          />
        ) : null}
        {rowErrors.length ? (
          <Table<TImportRowError>
            size="small"
            data-testid="import-errors"
            rowKey={(r) => `${r.row}-${r.field}-${r.code}-${r.message}`}
            dataSource={rowErrors}
            pagination={{ pageSize: 10 }}
            columns={[
              { title: t('import.row'), dataIndex: 'row', width: 70 },
              {
                title: t('import.field'),
                dataIndex: 'field',
                width: 160,
                render: (f: string | null) => (f ? l.field(f) : ''),
              },
              { title: t('import.message'), dataIndex: 'message' },
            ]}
          />
        ) : null}
      </Space>
    </Modal>
  );
}
