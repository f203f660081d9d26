import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_RETENTION_MONTHS,
  RETENTION_KINDS,
  RETENTION_MONTHS,
  type TPurgeResult,
  type TRetentionKind,
} from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Input,
  Modal,
  Progress,
  Select,
  Space,
  Switch,
  Table,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../../shared/auth/session';
import { formatDateTime } from '../../../shared/format';
import { errorText } from '../../../shared/forms/error-text';
import { jobErrorText, useJobProgress } from '../../../shared/jobs/use-job-progress';
import { exportKind, retentionKeys, startPurge, usePreview, useSaveSettings, useSettings } from '../api';
import '../i18n';

function MonthsSelect(props: { value: number; onChange: (m: number) => void; testId: string }) {
  const { t } = useTranslation('retention');
  return (
    <Select
      data-testid={props.testId}
      style={{ width: 160 }}
      value={props.value}
      onChange={props.onChange}
      options={RETENTION_MONTHS.map((m) => ({ value: m, label: t('months', { n: m }) }))}
    />
  );
}

function KindChecks(props: { value: TRetentionKind[]; onChange: (k: TRetentionKind[]) => void; testId: string }) {
  const { t } = useTranslation('retention');
  return (
    <Checkbox.Group
      data-testid={props.testId}
      value={props.value}
      onChange={(v) => props.onChange(v as TRetentionKind[])}
      options={RETENTION_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
    />
  );
}

/** Purge now: retention, kinds, the preview with counts and exports, the confirmation by company name, progress. */
function PurgeCard() {
  const { t } = useTranslation('retention');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const profile = useProfile();
  const company = profile?.company?.name ?? '';
  const [months, setMonths] = useState<number>(DEFAULT_RETENTION_MONTHS);
  const [kinds, setKinds] = useState<TRetentionKind[]>([...RETENTION_KINDS]);
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [exporting, setExporting] = useState<TRetentionKind | null>(null);
  const preview = usePreview(months);
  const job = useJobProgress();
  const followed = useRef(false);

  const follow = async (start: Parameters<typeof job.run>[0]) => {
    const end = await job.run(start);
    await qc.invalidateQueries({ queryKey: retentionKeys.all });
    if (end?.state === 'succeeded') {
      const deleted = Object.values((end.result as TPurgeResult | null)?.deleted ?? {}).reduce((a, b) => a + b, 0);
      message.success(t('done', { n: deleted.toLocaleString() }));
    }
  };

  // A purge already under way (started elsewhere or before a reload) is followed at once.
  const running = preview.data?.running_job ?? null;
  useEffect(() => {
    if (running && !followed.current && !job.running) {
      followed.current = true;
      void follow(() => Promise.resolve(running));
    }
  });

  const counts = new Map(preview.data?.counts.map((c) => [c.kind, c.count]) ?? []);
  const selectedTotal = kinds.reduce((n, k) => n + (counts.get(k) ?? 0), 0);

  const purge = async () => {
    setConfirming(false);
    followed.current = true;
    await follow(() => startPurge({ months, kinds, confirm_name: typed }));
    setTyped('');
  };

  const download = async (kind: TRetentionKind) => {
    setExporting(kind);
    try {
      await exportKind(months, kind);
    } catch (err) {
      message.error(errorText(err));
    } finally {
      setExporting(null);
    }
  };

  return (
    <Card title={t('purgeTitle')} data-testid="purge-card">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Space wrap>
          <span>{t('olderThan')}</span>
          <MonthsSelect value={months} onChange={setMonths} testId="retention-months" />
          {preview.data && (
            <Typography.Text type="secondary" data-testid="retention-cutoff">
              {t('cutoff', { date: formatDateTime(preview.data.cutoff) })}
            </Typography.Text>
          )}
        </Space>
        <KindChecks value={kinds} onChange={setKinds} testId="retention-kinds" />
        <Table
          data-testid="retention-preview"
          size="small"
          rowKey="kind"
          pagination={false}
          loading={preview.isFetching}
          dataSource={preview.data?.counts ?? []}
          columns={[
            { title: t('columns.kind'), dataIndex: 'kind', render: (k: TRetentionKind) => t(`kinds.${k}`) },
            {
              title: t('columns.count'),
              dataIndex: 'count',
              align: 'right',
              render: (n: number, r) => <span data-testid={`retention-count-${r.kind}`}>{n.toLocaleString()}</span>,
            },
            {
              title: t('columns.export'),
              key: 'export',
              render: (_, r) => (
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  disabled={r.count === 0}
                  loading={exporting === r.kind}
                  data-testid={`retention-export-${r.kind}`}
                  onClick={() => void download(r.kind)}
                >
                  {t('export')}
                </Button>
              ),
            },
          ]}
        />
        <Space wrap>
          <Button
            danger
            type="primary"
            icon={<DeleteOutlined />}
            data-testid="retention-purge"
            disabled={kinds.length === 0 || selectedTotal === 0 || job.running}
            onClick={() => setConfirming(true)}
          >
            {t('purge', { n: selectedTotal.toLocaleString() })}
          </Button>
        </Space>
        {job.job && (
          <div data-testid="retention-progress">
            <Progress
              percent={job.job.state === 'succeeded' ? 100 : job.percent}
              status={job.job.state === 'failed' ? 'exception' : job.running ? 'active' : 'normal'}
            />
            <Typography.Text type="secondary">
              {t(`state.${job.job.state}`, { done: job.job.progress, total: job.job.total })}
            </Typography.Text>
          </div>
        )}
        {job.job?.state === 'failed' && <Alert type="error" showIcon message={jobErrorText(job.job.error)} />}
        {job.error && <Alert type="error" showIcon message={job.error} data-testid="retention-error" />}
      </Space>
      <Modal
        open={confirming}
        title={t('confirmTitle')}
        okText={t('confirmOk')}
        okButtonProps={{
          danger: true,
          disabled: typed.trim() !== company.trim(),
          'data-testid': 'retention-confirm-ok',
        }}
        onOk={() => void purge()}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('confirmWarning', { n: selectedTotal.toLocaleString(), months })} />
          <Typography.Text>{t('confirmType', { name: company })}</Typography.Text>
          <Input
            data-testid="retention-confirm-name"
            value={typed}
            placeholder={company}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
          />
        </Space>
      </Modal>
    </Card>
  );
}

/** The monthly scheduled retention (off by default). */
function ScheduleCard() {
  const { t } = useTranslation('retention');
  const { message } = App.useApp();
  const settings = useSettings();
  const save = useSaveSettings();
  const [draft, setDraft] = useState<{ schedule_enabled: boolean; months: number; kinds: TRetentionKind[] } | null>(
    null,
  );
  const value = draft ?? settings.data ?? null;
  if (!value) return <Card loading title={t('scheduleTitle')} />;
  const submit = async () => {
    try {
      await save.mutateAsync({ schedule_enabled: value.schedule_enabled, months: value.months, kinds: value.kinds });
      setDraft(null);
      message.success(t('saved'));
    } catch (err) {
      message.error(errorText(err));
    }
  };
  return (
    <Card title={t('scheduleTitle')} data-testid="schedule-card">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('scheduleIntro')}</Typography.Paragraph>
        <Space>
          <Switch
            data-testid="retention-schedule"
            checked={value.schedule_enabled}
            onChange={(on) => setDraft({ ...value, schedule_enabled: on })}
          />
          <span>{t('scheduleSwitch')}</span>
        </Space>
        <Space wrap>
          <span>{t('olderThan')}</span>
          <MonthsSelect
            value={value.months}
            onChange={(m) => setDraft({ ...value, months: m })}
            testId="retention-schedule-months"
          />
        </Space>
        <KindChecks
          value={value.kinds}
          onChange={(k) => setDraft({ ...value, kinds: k })}
          testId="retention-schedule-kinds"
        />
        <Typography.Text type="secondary">
          {t('lastRun', { date: settings.data?.last_run_at ? formatDateTime(settings.data.last_run_at) : t('never') })}
        </Typography.Text>
        <Button
          type="primary"
          data-testid="retention-schedule-save"
          disabled={!draft || value.kinds.length === 0}
          loading={save.isPending}
          onClick={() => void submit()}
        >
          {t('save')}
        </Button>
      </Space>
    </Card>
  );
}

/** /database-clean: the seller's admin purges old finished documents and logs, now or on a monthly schedule. */
export default function DatabaseCleanPage() {
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <PurgeCard />
      <ScheduleCard />
    </Space>
  );
}
