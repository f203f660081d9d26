import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  IMPORT_FIELDS,
  IMPORT_REQUIRED_FIELDS,
  outboundRoutes,
  type TImportField,
  type TImportForm,
  type TImportMapping,
  type TInspectResult,
} from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoute, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { fileToBase64 } from '../../../../shared/upload';
import { inspectFile, outboundReads, usePlatformOptions } from '../../api';
import { useOrderLabels } from '../../components/labels';
import '../../i18n';

type TValues = {
  name: string;
  platform_id?: string | null;
  header_row: number;
  mapping: Partial<Record<TImportField, string[]>>;
};

/** Map a seller's own file layout onto our fields, once per channel: headers from a sample file, fallbacks in order. */
function FormEditor(props: { editing: TImportForm | 'new'; onClose: () => void }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const platforms = usePlatformOptions();
  const save = useSaveRoute(outboundRoutes.createImportForm, outboundRoutes.updateImportForm, {
    invalidates: outboundReads,
  });
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const existing = props.editing === 'new' ? null : props.editing;
  const [sample, setSample] = useState<TInspectResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headerOptions = [...new Set([...(sample?.headers ?? []), ...Object.values(existing?.mapping ?? {}).flat()])]
    .filter(Boolean)
    .map((h) => ({ value: h, label: h }));

  /** The fields an import needs are checked before the layout is saved; a phone or a mobile column is enough. */
  const mappingRules = (f: TImportField) => {
    if (IMPORT_REQUIRED_FIELDS.includes(f))
      return [
        { required: true, type: 'array' as const, message: t('customizeForm.mappingRequired', { field: l.field(f) }) },
      ];
    if (f !== 'recipient_phone') return [];
    return [
      ({ getFieldValue }: { getFieldValue: (name: (string | number)[]) => unknown }) => ({
        validator: (_: unknown, value: string[] | undefined) =>
          value?.length || (getFieldValue(['mapping', 'recipient_mobile']) as string[] | undefined)?.length
            ? Promise.resolve()
            : Promise.reject(new Error(t('customizeForm.phoneOrMobileRequired'))),
      }),
    ];
  };

  const onSample = async (file: File) => {
    setError(null);
    try {
      const result = await inspectFile(await fileToBase64(file), form.getFieldValue('header_row') ?? 1);
      setSample(result);
      const current = (form.getFieldValue('mapping') ?? {}) as TImportMapping;
      form.setFieldValue('mapping', {
        ...result.suggested,
        ...Object.fromEntries(Object.entries(current).filter(([, v]) => v?.length)),
      });
    } catch (err) {
      setError(errorText(err));
    }
  };

  const onFinish = async (v: TValues) => {
    const mapping = Object.fromEntries(Object.entries(v.mapping ?? {}).filter(([, h]) => h?.length)) as TImportMapping;
    try {
      await save.mutateAsync({
        id: existing?.id,
        body: { name: v.name, platform_id: v.platform_id ?? null, header_row: v.header_row, mapping },
      });
      void message.success(t('common:messages.saved'));
      props.onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Modal
      open
      width={900}
      title={existing ? existing.name : t('customizeForm.new')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<TValues>
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        initialValues={existing ? { ...existing, mapping: existing.mapping } : { header_row: 1, mapping: {} }}
        data-testid="import-form-editor"
      >
        <Space wrap align="start">
          <Form.Item
            name="name"
            label={t('customizeForm.name')}
            rules={[{ required: true, message: t('customizeForm.nameRequired') }]}
          >
            <Input style={{ width: 240 }} data-testid="form-name" />
          </Form.Item>
          <Form.Item name="platform_id" label={t('customizeForm.channel')}>
            <Select
              allowClear
              style={{ width: 220 }}
              placeholder={t('customizeForm.noPlatform')}
              options={platforms.data ?? []}
              data-testid="form-platform"
            />
          </Form.Item>
          <Form.Item name="header_row" label={t('customizeForm.headerRow')}>
            <InputNumber min={1} max={50} precision={0} />
          </Form.Item>
          <Form.Item label={t('customizeForm.sample')}>
            <Upload
              accept=".xlsx,.csv"
              showUploadList={false}
              beforeUpload={(f) => {
                void onSample(f);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} data-testid="form-sample">
                {t('customizeForm.chooseSample')}
              </Button>
            </Upload>
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary">{t('customizeForm.hint')}</Typography.Paragraph>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} /> : null}
        {existing && !sample ? (
          <Alert
            type="info"
            showIcon
            title={t('customizeForm.reupload')}
            style={{ marginBottom: 12 }}
            data-testid="form-reupload-hint"
          />
        ) : null}
        {sample?.samples.length ? (
          <Table
            size="small"
            style={{ marginBottom: 12 }}
            scroll={{ x: 'max-content' }}
            pagination={false}
            rowKey={(_, i) => String(i)}
            dataSource={sample.samples.map((r) => Object.fromEntries(r.map((v, i) => [String(i), v])))}
            columns={sample.headers.map((h, i) => ({ title: h, dataIndex: String(i), key: String(i) }))}
          />
        ) : null}
        <Table
          size="small"
          pagination={false}
          rowKey={(f) => f}
          dataSource={[...IMPORT_FIELDS]}
          columns={[
            {
              title: t('customizeForm.field'),
              key: 'field',
              width: 220,
              render: (_, f) => (
                <Space>
                  {l.field(f)}
                  {IMPORT_REQUIRED_FIELDS.includes(f) ? <Tag color="red">{t('customizeForm.required')}</Tag> : null}
                  {f === 'recipient_phone' ? <Tag color="orange">{t('customizeForm.phoneOrMobile')}</Tag> : null}
                </Space>
              ),
            },
            {
              title: t('customizeForm.columns'),
              key: 'columns',
              render: (_, f) => (
                <Form.Item
                  name={['mapping', f]}
                  style={{ margin: 0 }}
                  dependencies={f === 'recipient_phone' ? [['mapping', 'recipient_mobile']] : undefined}
                  rules={mappingRules(f)}
                >
                  {/* Only the file's columns: a typed name that is not in the file would never match a row. */}
                  <Select
                    mode="multiple"
                    style={{ width: '100%' }}
                    options={headerOptions}
                    notFoundContent={t('customizeForm.onlyFileColumns')}
                    data-testid={`map-${f}`}
                  />
                </Form.Item>
              ),
            },
          ]}
        />
      </Form>
    </Modal>
  );
}

/** /deliver-customize-form: custom order upload forms, one per channel. */
export default function DeliverCustomizeFormPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const { message } = App.useApp();
  const forms = useRoute(outboundRoutes.listImportForms, { query: { page_size: 100 } });
  const remove = useRouteMutation(outboundRoutes.deleteImportForm, { invalidates: outboundReads });
  const [editing, setEditing] = useState<TImportForm | 'new' | null>(null);
  return (
    <Card
      title={t('customizeForm.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="form-new">
          {t('customizeForm.new')}
        </Button>
      }
    >
      <Table<TImportForm>
        rowKey="id"
        loading={forms.isLoading}
        dataSource={forms.data?.results ?? []}
        pagination={false}
        columns={[
          { title: t('customizeForm.name'), dataIndex: 'name' },
          {
            title: t('customizeForm.channel'),
            key: 'platform',
            render: (_, f) =>
              f.platform_code ? `${f.platform_code} ${f.platform_name ?? ''}` : t('customizeForm.noPlatform'),
          },
          { title: t('customizeForm.headerRow'), dataIndex: 'header_row' },
          { title: t('customizeForm.mapped'), key: 'mapped', render: (_, f) => Object.keys(f.mapping).length },
          {
            title: t('list.actions'),
            key: 'actions',
            render: (_, f) => (
              <Space>
                <Button type="link" size="small" onClick={() => setEditing(f)}>
                  {t('actions.edit')}
                </Button>
                <Popconfirm
                  title={t('customizeForm.deleteConfirm', { name: f.name })}
                  okText={t('common:actions.confirm')}
                  cancelText={t('common:actions.cancel')}
                  onConfirm={() =>
                    remove.mutateAsync({ params: { id: f.id } }).catch((e) => message.error(errorText(e)))
                  }
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('actions.remove')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing ? <FormEditor editing={editing} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}
