import { MinusCircleOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  BATCH_FIELDS,
  catalogRoutes,
  MONTH_CHOICES,
  PRODUCT_STATUSES,
  type TBatchField,
  type TBatchPreview,
  type TBatchSet,
  type TBatchUpdate,
  type TProduct,
  WEIGHT_UNITS,
} from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation } from '../../../../shared/api/route-query';
import { useSelection } from '../../../../shared/crud/crud';
import { errorText } from '../../../../shared/forms/error-text';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { DataTable } from '../../../../shared/table/data-table';
import { fileToBase64 } from '../../../../shared/upload';
import { usePlatformOptions, useProviderOptions } from '../../../partners/api';
import { catalogReads, useCategoryOptions } from '../../api';
import '../../i18n';

const BOOL: TBatchField[] = ['volume_required', 'fragile', 'can_pack_together', 'allow_shipping', 'online_listing'];
const INT: TBatchField[] = ['safety_stock', 'stocking_days'];
const DECIMAL: TBatchField[] = ['unit_price', 'selling_price', 'cost', 'weight', 'length_cm', 'width_cm', 'height_cm'];

/** The value input of one batch field, by its type. */
function ValueInput({
  field,
  value,
  onChange,
}: {
  field?: TBatchField;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const { t } = useTranslation('catalog');
  const categories = useCategoryOptions();
  const providers = useProviderOptions();
  const platforms = usePlatformOptions();
  if (!field) return null;
  const select = (options: Array<{ value: unknown; label: string }>) => (
    <Select style={{ minWidth: 200 }} value={value} onChange={onChange} options={options as never} allowClear />
  );
  if (BOOL.includes(field)) return <Switch checked={!!value} onChange={onChange} />;
  if (INT.includes(field)) return <InputNumber min={0} precision={0} value={value as number} onChange={onChange} />;
  if (DECIMAL.includes(field))
    return <InputNumber<string> stringMode min="0" value={value as string} onChange={onChange} />;
  if (field === 'status') return select(PRODUCT_STATUSES.map((v) => ({ value: v, label: t(`status.${v}`) })));
  if (field === 'weight_unit') return select(WEIGHT_UNITS.map((v) => ({ value: v, label: v })));
  if (field === 'category_id') return select(categories.data ?? []);
  if (field === 'default_logistics_provider_id') return select(providers.data ?? []);
  if (field === 'default_platform_id') return select(platforms.data ?? []);
  if (field === 'shelf_life_months' || field === 'sellable_rule_months')
    return select(MONTH_CHOICES.map((m) => ({ value: m, label: t('form.months', { count: m }) })));
  return <Input value={value as string} onChange={(e) => onChange?.(e.target.value)} style={{ minWidth: 200 }} />;
}

/** /product-update: batch changes. Select products and set fields, or upload an Excel; preview, then apply. */
export default function ProductUpdatePage() {
  const { t } = useTranslation(['catalog', 'shared', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const [mode, setMode] = useState<'select' | 'file'>('select');
  const selection = useSelection<TProduct>();
  const [form] = Form.useForm<{ changes: Array<{ field?: TBatchField; value?: unknown }> }>();
  const preview = useRouteMutation(catalogRoutes.previewBatchUpdate);
  const apply = useRouteMutation(catalogRoutes.applyBatchUpdate, { invalidates: catalogReads });
  const [request, setRequest] = useState<TBatchUpdate | null>(null);
  const [result, setResult] = useState<TBatchPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const runPreview = async (body: TBatchUpdate) => {
    setError(null);
    setResult(null);
    try {
      setResult(await preview.mutateAsync({ body }));
      setRequest(body);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const previewSelection = () => {
    const changes = (form.getFieldValue('changes') ?? []) as Array<{ field?: TBatchField; value?: unknown }>;
    const set = Object.fromEntries(
      changes.filter((c) => c.field).map((c) => [c.field, c.value === undefined || c.value === '' ? null : c.value]),
    ) as TBatchSet;
    for (const f of BOOL) if (f in set) (set as Record<string, unknown>)[f] = !!set[f as keyof TBatchSet];
    if (selection.selected.size === 0 || Object.keys(set).length === 0) {
      setError(t('catalog:update.noSelection'));
      return;
    }
    void runPreview({ product_ids: [...selection.selected.keys()], set });
  };

  const rows = (result?.items ?? []).flatMap((i) =>
    i.changes.map((c) => ({ key: `${i.product_id}-${c.field}`, number: i.number, name: i.name, ...c })),
  );
  const show = (v: unknown) =>
    v === null || v === undefined
      ? '—'
      : typeof v === 'boolean'
        ? v
          ? t('common:crud.yes')
          : t('common:crud.no')
        : String(v);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Segmented
        value={mode}
        onChange={(v) => {
          setMode(v as 'select' | 'file');
          setResult(null);
          setError(null);
        }}
        options={[
          { value: 'select', label: t('catalog:update.modeSelect') },
          { value: 'file', label: t('catalog:update.modeFile') },
        ]}
      />
      {mode === 'select' ? (
        <>
          <DataTable<TProduct>
            {...routePage(catalogRoutes.listProducts)}
            rowKey="id"
            toolbar={<Typography.Text>{t('common:crud.selected', { count: selection.selected.size })}</Typography.Text>}
            columns={[
              selection.column,
              { title: label('number'), dataIndex: 'number', key: 'number', sorter: true },
              { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
              { title: label('category_id'), dataIndex: 'category_code' },
              { title: label('selling_price'), dataIndex: 'selling_price' },
              {
                title: label('status'),
                dataIndex: 'status',
                render: (v: TProduct['status']) => t(`catalog:status.${v}`),
              },
            ]}
          />
          <Card title={t('catalog:update.set')} size="small">
            <Typography.Paragraph type="secondary">{t('catalog:update.setHint')}</Typography.Paragraph>
            <Form form={form} initialValues={{ changes: [{}] }}>
              <Form.List name="changes">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((f) => (
                      <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                        <Form.Item name={[f.name, 'field']}>
                          <Select
                            style={{ minWidth: 200 }}
                            aria-label={t('catalog:update.set')}
                            options={BATCH_FIELDS.map((k) => ({ value: k, label: label(k) }))}
                          />
                        </Form.Item>
                        <Form.Item noStyle shouldUpdate>
                          {() => (
                            <Form.Item name={[f.name, 'value']}>
                              <ValueInput field={form.getFieldValue(['changes', f.name, 'field'])} />
                            </Form.Item>
                          )}
                        </Form.Item>
                        <MinusCircleOutlined onClick={() => remove(f.name)} />
                      </Space>
                    ))}
                    <Space>
                      <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
                        {t('common:crud.add')}
                      </Button>
                      <Button type="primary" onClick={previewSelection} loading={preview.isPending}>
                        {t('catalog:update.preview')}
                      </Button>
                    </Space>
                  </>
                )}
              </Form.List>
            </Form>
          </Card>
        </>
      ) : (
        <Card size="small">
          <Typography.Paragraph type="secondary">{t('catalog:update.fileHint')}</Typography.Paragraph>
          <Upload
            accept=".xlsx"
            showUploadList={false}
            beforeUpload={(file) => {
              void fileToBase64(file).then((file_base64) => runPreview({ file_base64 }));
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={preview.isPending}>
              {t('catalog:update.preview')}
            </Button>
          </Upload>
        </Card>
      )}
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {result ? (
        <Card
          title={t('catalog:update.preview')}
          extra={
            <Popconfirm
              title={t('catalog:update.confirmApply', { count: result.items.length })}
              okText={t('common:actions.confirm')}
              cancelText={t('common:actions.cancel')}
              disabled={result.errors.length > 0 || result.items.length === 0}
              onConfirm={async () => {
                try {
                  const r = await apply.mutateAsync({ body: request! });
                  void message.success(t('catalog:update.applied', { count: r.updated }));
                  setResult(null);
                  selection.clear();
                } catch (err) {
                  setError(errorText(err));
                }
              }}
            >
              <Button
                type="primary"
                disabled={result.errors.length > 0 || result.items.length === 0}
                loading={apply.isPending}
              >
                {t('catalog:update.apply')}
              </Button>
            </Popconfirm>
          }
        >
          {result.errors.length ? (
            <Alert
              type="error"
              showIcon
              title={t('catalog:update.errors')}
              description={
                <ul style={{ margin: 0 }}>
                  {result.errors.map((e) => (
                    <li key={`${e.row}-${e.field}-${e.code}-${e.message}`}>
                      {e.row ? `${t('shared:import.row')} ${e.row}: ` : ''}
                      {e.message}
                    </li>
                  ))}
                </ul>
              }
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <Typography.Paragraph type="secondary">
            {t('catalog:update.unchanged', { count: result.unchanged })}
          </Typography.Paragraph>
          <Table
            size="small"
            data-testid="batch-preview"
            dataSource={rows}
            pagination={{ pageSize: 25 }}
            columns={[
              { title: label('number'), dataIndex: 'number' },
              { title: label('name'), dataIndex: 'name' },
              { title: t('shared:import.field'), dataIndex: 'field', render: (f: string) => label(f) },
              { title: t('catalog:update.before'), dataIndex: 'before', render: show },
              { title: t('catalog:update.after'), dataIndex: 'after', render: show },
            ]}
          />
        </Card>
      ) : null}
    </Space>
  );
}
