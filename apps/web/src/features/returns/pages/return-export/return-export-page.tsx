import { DownloadOutlined } from '@ant-design/icons';
import {
  RETURN_CATEGORIES,
  RETURN_STATUSES,
  returnRoutes,
  SUPPLIER_RETURN_STATUSES,
  type TReturnCategory,
  type TReturnStatus,
  type TSupplierReturnStatus,
} from '@wms/contracts';
import { App, Button, Card, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../../shared/download';
import { errorText } from '../../../../shared/forms/error-text';
import { useReturnLabels } from '../../components/labels';
import '../../i18n';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';

interface TFilter {
  kind: 'return' | 'supplier';
  range?: [Dayjs, Dayjs] | null;
  status?: TReturnStatus | TSupplierReturnStatus;
  category?: TReturnCategory;
  warehouse_id?: string;
  search?: string;
}

/** /return-export: every line of the selected return receipts (or return-to-supplier orders) as an .xlsx. */
export default function ReturnExportPage() {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const [form] = Form.useForm<TFilter>();
  const kind = Form.useWatch('kind', form) ?? 'return';
  const [busy, setBusy] = useState(false);

  const onFinish = async (v: TFilter) => {
    setBusy(true);
    try {
      const query = {
        date_from: v.range?.[0]?.format('YYYY-MM-DD'),
        date_to: v.range?.[1]?.format('YYYY-MM-DD'),
        status: v.status,
        warehouse_id: v.warehouse_id,
        search: v.search?.trim() || undefined,
        ...(v.kind === 'return' ? { category: v.category } : {}),
      };
      // The status select offers the statuses of the chosen kind only.
      if (v.kind === 'return')
        await downloadFile(returnRoutes.exportReturns, 'returns.xlsx', {
          query: { ...query, status: query.status as TReturnStatus | undefined },
        });
      else
        await downloadFile(returnRoutes.exportSupplierReturns, 'supplier-returns.xlsx', {
          query: { ...query, status: query.status as TSupplierReturnStatus | undefined },
        });
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('export.title')} style={{ maxWidth: 760 }}>
      <p>{t('export.hint')}</p>
      <Form<TFilter> form={form} layout="vertical" initialValues={{ kind: 'return' }} onFinish={onFinish}>
        <Form.Item name="kind" label={t('export.what')}>
          <Radio.Group
            optionType="button"
            onChange={() => form.setFieldsValue({ status: undefined })}
            options={[
              { value: 'return', label: t('tabs.receipts') },
              { value: 'supplier', label: t('tabs.supplier') },
            ]}
          />
        </Form.Item>
        <Form.Item name="range" label={t('export.period')}>
          <DatePicker.RangePicker />
        </Form.Item>
        <Space wrap>
          <Form.Item name="status" label={t('fields.status')}>
            <Select
              allowClear
              style={{ width: 180 }}
              options={
                kind === 'return'
                  ? RETURN_STATUSES.map((s) => ({ value: s as string, label: labels.status(s) }))
                  : SUPPLIER_RETURN_STATUSES.map((s) => ({ value: s as string, label: labels.supplierStatus(s) }))
              }
            />
          </Form.Item>
          {kind === 'return' ? (
            <Form.Item name="category" label={t('fields.category')}>
              <Select
                allowClear
                style={{ width: 180 }}
                options={RETURN_CATEGORIES.map((c) => ({ value: c, label: labels.category(c) }))}
              />
            </Form.Item>
          ) : null}
          <Form.Item name="warehouse_id" label={t('fields.warehouse')}>
            <WarehouseSelect allowClear style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="search" label={t('export.keyword')}>
            <Input style={{ width: 200 }} />
          </Form.Item>
        </Space>
        <Button
          type="primary"
          htmlType="submit"
          icon={<DownloadOutlined />}
          loading={busy}
          data-testid="return-export-download"
        >
          {t('export.download')}
        </Button>
      </Form>
    </Card>
  );
}
