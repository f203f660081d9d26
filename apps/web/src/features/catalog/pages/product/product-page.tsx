import { DeleteOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { catalogRoutes, PRODUCT_STATUSES, PRODUCT_TYPES, type TCreateProduct, type TProduct } from '@wms/contracts';
import { App, Button, Form, Popconfirm, Select, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiCall } from '../../../../shared/api/client';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions, useSelection } from '../../../../shared/crud/crud';
import { downloadFile } from '../../../../shared/download';
import { errorText } from '../../../../shared/forms/error-text';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { ImportButton } from '../../../../shared/jobs/import-button';
import { DataTable } from '../../../../shared/table/data-table';
import { catalogReads, refreshCatalog, useCategoryOptions } from '../../api';
import { ProductFields } from '../../components/product-form';
import '../../i18n';

type TForm = Omit<TCreateProduct, 'allowed_sale_date'> & { allowed_sale_date?: Dayjs | null };

const DEFAULTS: Partial<TForm> = {
  type: 'single',
  status: 'active',
  weight_unit: 'g',
  safety_stock: 0,
  stocking_days: 0,
  shelf_life_months: null,
  sellable_rule_months: null,
  volume_required: false,
  fragile: false,
  can_pack_together: true,
  allow_shipping: true,
  online_listing: false,
  requires_serial: false,
  components: [],
};

function toForm(p: TProduct): Partial<TForm> {
  const { components, allowed_sale_date, ...rest } = p;
  return {
    ...rest,
    allowed_sale_date: allowed_sale_date ? dayjs(allowed_sale_date) : null,
    components: components.map((c) => ({ component_id: c.component_id, quantity: c.quantity })),
  };
}

/** Form values → API body: empty strings become null, the date a YYYY-MM-DD string. */
function toBody(v: TForm): TCreateProduct {
  const blank = (x: unknown) => (x === '' || x === undefined ? null : x);
  return {
    ...v,
    barcode: blank(v.barcode) as string | null,
    category_id: blank(v.category_id) as string | null,
    unit: v.unit ?? '',
    unit_price: blank(v.unit_price) as string | null,
    selling_price: blank(v.selling_price) as string | null,
    cost: blank(v.cost) as string | null,
    weight: blank(v.weight) as string | null,
    length_cm: blank(v.length_cm) as string | null,
    width_cm: blank(v.width_cm) as string | null,
    height_cm: blank(v.height_cm) as string | null,
    default_logistics_provider_id: blank(v.default_logistics_provider_id) as string | null,
    default_platform_id: blank(v.default_platform_id) as string | null,
    allowed_sale_date: v.allowed_sale_date ? v.allowed_sale_date.format('YYYY-MM-DD') : null,
    components: v.type === 'combination' ? (v.components ?? []) : undefined,
  };
}

/** /product: single and combination products; create, edit, delete or deactivate, import, print barcodes. */
export default function ProductPage() {
  const { t } = useTranslation(['catalog', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const save = useSaveRoute(catalogRoutes.createProduct, catalogRoutes.updateProduct, { invalidates: catalogReads });
  const remove = useRouteMutation(catalogRoutes.bulkDeleteProducts, { invalidates: catalogReads });
  const categories = useCategoryOptions();
  const selection = useSelection<TProduct>();
  const [editing, setEditing] = useState<TProduct | 'new' | null>(null);
  const current = editing && editing !== 'new' ? editing : null;
  const ids = [...selection.selected.keys()];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('catalog:inUseHint')}</Typography.Paragraph>
      <DataTable<TProduct>
        {...routePage(catalogRoutes.listProducts)}
        rowKey="id"
        excel={{
          fileName: 'products',
          download: (query) => downloadFile(catalogRoutes.exportProducts, 'products.xlsx', { query }),
        }}
        filters={
          <>
            <Form.Item name="type">
              <Select
                allowClear
                style={{ minWidth: 130 }}
                placeholder={t('catalog:filters.type')}
                aria-label={label('type')}
                options={PRODUCT_TYPES.map((v) => ({ value: v, label: t(`catalog:type.${v}`) }))}
              />
            </Form.Item>
            <Form.Item name="status">
              <Select
                allowClear
                style={{ minWidth: 130 }}
                placeholder={t('catalog:filters.status')}
                aria-label={label('status')}
                options={PRODUCT_STATUSES.map((v) => ({ value: v, label: t(`catalog:status.${v}`) }))}
              />
            </Form.Item>
            <Form.Item name="category_id">
              <Select
                allowClear
                style={{ minWidth: 160 }}
                placeholder={t('catalog:filters.category')}
                aria-label={label('category_id')}
                options={categories.data ?? []}
              />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="add-product">
              {t('common:crud.add')}
            </Button>
            <ImportButton
              start={(body) => apiCall(catalogRoutes.importProducts, { body })}
              template={{ route: catalogRoutes.productImportTemplate, fileName: 'products-template.xlsx' }}
              progressText={() => t('common:progress.importingProducts')}
              onDone={() => void refreshCatalog()}
            />
            <Button icon={<PrinterOutlined />} onClick={() => navigate('/product-print', { state: { ids } })}>
              {t('catalog:print')}
            </Button>
            <Popconfirm
              title={t('common:crud.confirmDeleteSelected', { count: ids.length })}
              okText={t('common:actions.confirm')}
              cancelText={t('common:actions.cancel')}
              disabled={ids.length === 0}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync({ body: { ids } });
                  selection.clear();
                  void message.success(t('common:crud.deleted'));
                } catch (err) {
                  void message.error(errorText(err));
                }
              }}
            >
              <Button danger icon={<DeleteOutlined />} disabled={ids.length === 0}>
                {t('common:crud.deleteSelected')}
              </Button>
            </Popconfirm>
          </>
        }
        columns={[
          selection.column,
          { title: label('number'), dataIndex: 'number', key: 'number', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('barcode'), dataIndex: 'barcode', key: 'barcode', sorter: true },
          {
            title: label('type'),
            dataIndex: 'type',
            key: 'type',
            sorter: true,
            render: (v: TProduct['type'], p) => (
              <span title={p.components.map((c) => `${c.number}×${c.quantity}`).join(', ')}>
                <Tag color={v === 'combination' ? 'purple' : 'default'}>{t(`catalog:type.${v}`)}</Tag>
              </span>
            ),
          },
          {
            title: label('category_id'),
            dataIndex: 'category_code',
            key: 'category_code',
            sorter: true,
            render: (_, p) => `${p.category_code ?? ''} ${p.category_name ?? ''}`,
          },
          { title: label('unit'), dataIndex: 'unit' },
          {
            title: label('selling_price'),
            dataIndex: 'selling_price',
            key: 'selling_price',
            sorter: true,
            align: 'right',
          },
          {
            title: label('safety_stock'),
            dataIndex: 'safety_stock',
            key: 'safety_stock',
            sorter: true,
            align: 'right',
          },
          {
            title: label('status'),
            dataIndex: 'status',
            key: 'status',
            sorter: true,
            render: (v: TProduct['status']) => (
              <Tag color={v === 'active' ? 'green' : 'default'}>{t(`catalog:status.${v}`)}</Tag>
            ),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, p) => (
              <RowActions
                name={`${p.number} ${p.name}`}
                onEdit={() => setEditing(p)}
                onDelete={() => remove.mutateAsync({ body: { ids: [p.id] } })}
                extra={
                  p.status === 'active' ? (
                    <Button
                      size="small"
                      onClick={() =>
                        save
                          .mutateAsync({ id: p.id, body: { status: 'inactive' } })
                          .catch((e) => void message.error(errorText(e)))
                      }
                    >
                      {t('catalog:deactivate')}
                    </Button>
                  ) : null
                }
              />
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        width={960}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={current ? toForm(current) : DEFAULTS}
        onClose={() => setEditing(null)}
        onSubmit={(v) => save.mutateAsync({ id: current?.id, body: toBody(v) })}
      >
        {(form) => <ProductFields form={form} product={current} />}
      </CrudModal>
    </>
  );
}
