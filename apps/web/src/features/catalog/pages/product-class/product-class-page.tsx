import { PlusOutlined } from '@ant-design/icons';
import {
  catalogRoutes,
  type TCreateProductCategory,
  type TProductCategory,
  ZCreateProductCategory,
} from '@wms/contracts';
import { Button, Form, Input, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions } from '../../../../shared/crud/crud';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import { catalogReads } from '../../api';
import '../../i18n';

/** /product-class: product categories; the default 0015 "other" always exists and cannot be deleted. */
export default function ProductClassPage() {
  const { t } = useTranslation(['catalog', 'common']);
  const label = useFieldLabel();
  const save = useSaveRoute(catalogRoutes.createProductCategory, catalogRoutes.updateProductCategory, {
    invalidates: catalogReads,
  });
  const remove = useRouteMutation(catalogRoutes.deleteProductCategory, { invalidates: catalogReads });
  const [editing, setEditing] = useState<TProductCategory | 'new' | null>(null);
  const s = ZCreateProductCategory.shape;
  const current = editing && editing !== 'new' ? editing : null;
  return (
    <>
      <DataTable<TProductCategory>
        {...routePage(catalogRoutes.listProductCategories)}
        rowKey="id"
        excel={{ fileName: 'product-categories' }}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('common:crud.add')}
          </Button>
        }
        columns={[
          {
            title: label('code'),
            dataIndex: 'code',
            key: 'code',
            sorter: true,
            render: (code: string, c) => (
              <>
                {code} {c.is_default ? <Tag color="blue">{t('catalog:defaultCategory')}</Tag> : null}
              </>
            ),
            exportValue: (c) => c.code,
          },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('product_count'), dataIndex: 'product_count' },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, c) => (
              <RowActions
                name={`${c.code} ${c.name}`}
                onEdit={() => setEditing(c)}
                onDelete={c.is_default ? undefined : () => remove.mutateAsync({ params: { id: c.id } })}
              />
            ),
          },
        ]}
      />
      <CrudModal<TCreateProductCategory>
        open={editing !== null}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={current ?? {}}
        onClose={() => setEditing(null)}
        onSubmit={(body) => save.mutateAsync({ id: current?.id, body })}
      >
        {() => (
          <>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input disabled={current?.is_default} />
            </Form.Item>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}
