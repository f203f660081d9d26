import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  ERROR_CATALOGUE,
  errorMessage,
  jobRoutes,
  type TErrorCode,
  type TImportRowError,
  type TJob,
  type TRouteContract,
} from '@wms/contracts';
import { Alert, App, Button, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../../../shared/api/client';
import { downloadFile } from '../../../shared/download';
import { errorText } from '../../../shared/forms/error-text';
import { useFieldLabel } from '../../../shared/forms/field-label';
import { getLanguage } from '../../../shared/preferences/preferences';
import { fileToBase64 } from '../../../shared/upload';
import '../i18n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A failed job's error (stored as code + params) in the user's language. */
function jobErrorText(error: TJob['error']): string {
  const code = error?.code ?? 'INTERNAL_ERROR';
  const known = Object.hasOwn(ERROR_CATALOGUE, code) ? (code as TErrorCode) : 'INTERNAL_ERROR';
  return errorMessage(known, getLanguage(), error?.params ?? {});
}

/**
 * Excel import: template download, upload, then the job's progress ("… is being imported") until it succeeds or
 * is rejected with row errors (row number, field, message in the user's language).
 */
export function ImportButton(props: {
  importRoute: TRouteContract;
  templateRoute: TRouteContract;
  templateFileName: string;
  progressText: string;
  onDone: () => void;
}) {
  const { t } = useTranslation(['warehouse', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [job, setJob] = useState<TJob | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    setBusy(true);
    setError(null);
    setJob(null);
    try {
      const file_base64 = await fileToBase64(file);
      let current = (await apiCall(props.importRoute, { body: { file_base64, filename: file.name } } as never)) as TJob;
      setJob(current);
      while (current.state === 'queued' || current.state === 'running') {
        await sleep(700);
        current = await apiCall(jobRoutes.getJob, { params: { id: current.id } });
        setJob(current);
      }
      if (current.state === 'succeeded') {
        const r = current.result as { created: number; updated: number };
        void message.success(t('warehouse:import.done', { created: r.created, updated: r.updated }));
        props.onDone();
      }
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const rowErrors =
    (job?.state === 'failed' ? (job.error?.params?.errors as TImportRowError[] | undefined) : undefined) ?? [];
  const percent = job && job.total > 0 ? Math.round((job.progress / job.total) * 100) : 0;
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)}>
        {t('warehouse:import.button')}
      </Button>
      <Modal
        open={open}
        title={t('warehouse:import.title')}
        onCancel={() => setOpen(false)}
        footer={null}
        width={720}
        destroyOnHidden
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('warehouse:import.hint')}</Typography.Paragraph>
          <Space>
            <Button
              icon={<DownloadOutlined />}
              onClick={() =>
                downloadFile(props.templateRoute, props.templateFileName, {} as never).catch((e) =>
                  setError(errorText(e)),
                )
              }
            >
              {t('warehouse:import.template')}
            </Button>
            <Upload
              accept=".xlsx"
              showUploadList={false}
              disabled={busy}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={busy} data-testid="import-choose">
                {t('warehouse:import.choose')}
              </Button>
            </Upload>
          </Space>
          {busy && job ? (
            <div data-testid="import-progress">
              <Typography.Text>{props.progressText}</Typography.Text>
              <Progress percent={percent} status="active" />
            </div>
          ) : null}
          {error ? <Alert type="error" showIcon title={error} /> : null}
          {job?.state === 'failed' ? (
            <Alert
              type="error"
              showIcon
              title={job.error?.code === 'IMPORT_REJECTED' ? t('warehouse:import.rejected') : jobErrorText(job.error)}
            />
          ) : null}
          {rowErrors.length ? (
            <Table<TImportRowError>
              size="small"
              data-testid="import-errors"
              rowKey={(r) => `${r.row}-${r.field}-${r.code}`}
              dataSource={rowErrors}
              pagination={{ pageSize: 10 }}
              columns={[
                { title: t('warehouse:import.row'), dataIndex: 'row', width: 70 },
                {
                  title: t('warehouse:import.field'),
                  dataIndex: 'field',
                  width: 160,
                  render: (f: string | null) => (f ? label(f) : ''),
                },
                { title: t('warehouse:import.message'), dataIndex: 'message' },
              ]}
            />
          ) : null}
        </Space>
      </Modal>
    </>
  );
}
