import { DownloadOutlined } from '@ant-design/icons';
import { EXPORT_FORMATS, ORDER_STATUSES, outboundRoutes, type TExportFormat, type TOrderStatus } from '@wms/contracts';
import { Alert, App, Button, Card, DatePicker, Form, Radio, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { downloadFile } from '../../../../shared/download';
import { errorText } from '../../../../shared/forms/error-text';
import { usePlatformOptions, useProviderOptions } from '../../api';
import { useOrderLabels } from '../../components/labels';
import '../../i18n';

type TValues = {
  format: TExportFormat;
  status?: TOrderStatus;
  range?: [Dayjs | null, Dayjs | null] | null;
  platform_id?: string;
  logistics_provider_id?: string;
  has_consignment?: 'true' | 'false';
};

/** /deliver-export: orders as the standard Excel, or as a carrier's upload file to obtain consignment numbers. */
export default function DeliverExportPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const platforms = usePlatformOptions();
  const providers = useProviderOptions();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<TValues>();
  const format = Form.useWatch('format', form);

  const download = async (v: TValues) => {
    setBusy(true);
    try {
      await downloadFile(outboundRoutes.exportFile, `orders-${v.format}.xlsx`, {
        query: {
          format: v.format,
          status: v.status,
          platform_id: v.platform_id,
          logistics_provider_id: v.logistics_provider_id,
          has_consignment: v.has_consignment,
          date_from: v.range?.[0]?.format('YYYY-MM-DD'),
          date_to: v.range?.[1]?.format('YYYY-MM-DD'),
        },
      });
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card style={{ maxWidth: 760 }}>
      <Form<TValues>
        form={form}
        layout="vertical"
        initialValues={{ format: 'standard', status: 'exported' }}
        onFinish={(v) => void download(v)}
      >
        <Form.Item name="format" label={t('exportPage.format')}>
          <Radio.Group
            optionType="button"
            options={EXPORT_FORMATS.map((f) => ({ value: f, label: t(`exportPage.formats.${f}`) }))}
            data-testid="export-format"
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">
          {format === 'standard' ? (
            <>
              {t('exportPage.standardHint')} <Link to="/customize">{t('exportPage.customizeLink')}</Link>
            </>
          ) : (
            t('exportPage.carrierHint')
          )}
        </Typography.Paragraph>
        <Space wrap>
          <Form.Item name="status" label={l.field('status')}>
            <Select
              allowClear
              style={{ width: 160 }}
              options={ORDER_STATUSES.map((s) => ({ value: s, label: l.status(s) }))}
            />
          </Form.Item>
          <Form.Item name="range" label={l.field('created_at')}>
            <DatePicker.RangePicker />
          </Form.Item>
          <Form.Item name="platform_id" label={l.field('platform')}>
            <Select allowClear style={{ width: 180 }} options={platforms.data ?? []} />
          </Form.Item>
          <Form.Item name="logistics_provider_id" label={l.field('logistics_provider')}>
            <Select allowClear style={{ width: 180 }} options={providers.data ?? []} />
          </Form.Item>
          <Form.Item name="has_consignment" label={l.field('consignment_number')}>
            <Select
              allowClear
              style={{ width: 160 }}
              options={[
                { value: 'false', label: t('exportPage.withoutConsignment') },
                { value: 'true', label: t('exportPage.withConsignment') },
              ]}
            />
          </Form.Item>
        </Space>
        <Alert type="info" showIcon title={t('exportPage.limit')} style={{ marginBottom: 16 }} />
        <Button
          type="primary"
          htmlType="submit"
          icon={<DownloadOutlined />}
          loading={busy}
          data-testid="export-download"
        >
          {t('actions.download')}
        </Button>
      </Form>
    </Card>
  );
}
