import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { TImportUpload, TJob, TRouteContract } from '@wms/contracts';
import { Alert, App, Button, Modal, Progress, Space, Typography, Upload } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../download';
import { errorText } from '../forms/error-text';
import { fileToBase64 } from '../upload';
import { RowErrorsTable } from './row-errors-table';
import { jobErrorText, useJobProgress } from './use-job-progress';

/** The dialog's words; each defaults to the generic Excel import's (shared:import.*). */
interface TImportTexts {
  button: string;
  title: string;
  hint: string;
  template: string;
  choose: string;
}

/**
 * Excel import: a button that opens the dialog with the template download and the file choice, then the job's
 * progress ("… is being imported") until it succeeds or is refused with its row errors (row, field, message in the
 * user's language). Nothing of a refused file is imported, so only a success calls `onDone`.
 */
export function ImportButton(props: {
  /** Queue the import of the chosen file; resolves with the job to follow. */
  start: (upload: Required<TImportUpload>) => Promise<TJob>;
  template: { route: TRouteContract; fileName: string };
  /** What the progress bar says while the job runs. */
  progressText: (job: TJob) => string;
  /** After a successful job (refresh the lists the import wrote to). */
  onDone?: (job: TJob) => void;
  /** What a successful job shows in the dialog; without it a message says how many rows were created and updated. */
  result?: (job: TJob) => ReactNode;
  /** Choices above the file choice (the order import's channel). */
  options?: ReactNode;
  /** False while a choice in `options` is still missing: the file cannot be chosen yet. */
  ready?: boolean;
  texts?: Partial<TImportTexts>;
  /** Accepted file types; .xlsx by default. */
  accept?: string;
  width?: number;
  fieldLabel?: (field: string) => string;
  'data-testid'?: string;
}) {
  const { t } = useTranslation('shared');
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const progress = useJobProgress();
  const { job } = progress;
  const text = (key: keyof TImportTexts) => props.texts?.[key] ?? t(`import.${key}`);

  const upload = async (file: File) => {
    const done = await progress.run(async () =>
      props.start({ file_base64: await fileToBase64(file), filename: file.name }),
    );
    if (done?.state !== 'succeeded') return;
    if (!props.result) {
      const r = done.result as { created?: number; updated?: number } | null;
      void message.success(t('import.done', { created: r?.created ?? 0, updated: r?.updated ?? 0 }));
    }
    props.onDone?.(done);
  };

  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid={props['data-testid']}>
        {text('button')}
      </Button>
      <Modal
        open={open}
        title={text('title')}
        onCancel={() => setOpen(false)}
        footer={null}
        width={props.width ?? 720}
        destroyOnHidden
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{text('hint')}</Typography.Paragraph>
          {props.options}
          <Space wrap>
            <Button
              icon={<DownloadOutlined />}
              onClick={() =>
                // Template routes take no input.
                downloadFile(props.template.route, props.template.fileName, {} as never).catch((e) =>
                  progress.setError(errorText(e)),
                )
              }
            >
              {text('template')}
            </Button>
            <Upload
              accept={props.accept ?? '.xlsx'}
              showUploadList={false}
              disabled={progress.running || props.ready === false}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button
                type="primary"
                icon={<UploadOutlined />}
                loading={progress.running}
                disabled={props.ready === false}
                data-testid="import-choose"
              >
                {text('choose')}
              </Button>
            </Upload>
          </Space>
          {progress.running && job ? (
            <div data-testid="import-progress">
              <Typography.Text>{props.progressText(job)}</Typography.Text>
              <Progress percent={progress.percent} status="active" />
            </div>
          ) : null}
          {progress.error ? <Alert type="error" showIcon title={progress.error} /> : null}
          {job?.state === 'succeeded' && props.result ? props.result(job) : null}
          {job?.state === 'failed' ? (
            <Alert
              type="error"
              showIcon
              data-testid="import-rejected"
              title={
                job.error?.code === 'IMPORT_REJECTED'
                  ? t('import.rejected', { count: Number(job.error.params?.count ?? progress.rowErrors.length) })
                  : jobErrorText(job.error)
              }
            />
          ) : null}
          <RowErrorsTable errors={progress.rowErrors} fieldLabel={props.fieldLabel} data-testid="import-errors" />
        </Space>
      </Modal>
    </>
  );
}
