import { DownloadOutlined } from '@ant-design/icons';
import { inboundRoutes } from '@wms/contracts';
import { App, Button, Card, Form, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { useRoute } from '../../../../shared/api/route-query';
import { downloadFile } from '../../../../shared/download';
import { errorText } from '../../../../shared/forms/error-text';
import { ProductSelect } from '../../../../shared/pickers/product-select';
import type { TTableQuery } from '../../../../shared/table/list-query';
import { ReceiptFilters, toReceiptQuery } from '../entry/entry-page';
import '../../i18n';

/** /entry-export: choose filters, see how many receipts match, download their lines as an Excel file. */
export default function EntryExportPage() {
  const { t } = useTranslation(['inbound', 'nav', 'common']);
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [query, setQuery] = useState<TTableQuery>({ page: 1, page_size: 10 });
  const [busy, setBusy] = useState(false);
  const matching = useRoute(inboundRoutes.listReceipts, { query: { ...query, page_size: 10 } });
  const download = async () => {
    setBusy(true);
    try {
      const { page: _p, page_size: _s, ...filters } = query;
      await downloadFile(inboundRoutes.exportReceipts, 'inbound-receipts.xlsx', { query: filters });
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={screenTitle('/entry-export')}>
      <Form
        form={form}
        layout="inline"
        style={{ rowGap: 8 }}
        onValuesChange={(_, all) => setQuery({ ...toReceiptQuery(all as TTableQuery), page: 1, page_size: 10 })}
      >
        <ReceiptFilters />
        <Form.Item name="product_id">
          <ProductSelect type="single" allowClear placeholder={t('field.product')} aria-label={t('field.product')} />
        </Form.Item>
      </Form>
      <Space style={{ marginTop: 24 }}>
        <Typography.Text data-testid="export-count">
          {t('export.matching', { count: matching.data?.count ?? 0 })}
        </Typography.Text>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          loading={busy}
          disabled={!matching.data?.count}
          onClick={() => void download()}
          data-testid="export-download"
        >
          {t('export.download')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('export.hint')}
      </Typography.Paragraph>
    </Card>
  );
}
