import { PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  catalogRoutes,
  type TCreatePackagingMaterial,
  type TPackagingMaterial,
  ZCreatePackagingMaterial,
} from '@wms/contracts';
import { Button, Form, Input, InputNumber } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions } from '../../../../shared/crud/crud';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import { catalogReads } from '../../api';
import '../../i18n';

/** /package: packaging materials (code, name, category, inventory quantity) and their labels. */
export default function PackagePage() {
  const { t } = useTranslation(['catalog', 'common']);
  const label = useFieldLabel();
  const navigate = useNavigate();
  const save = useSaveRoute(catalogRoutes.createPackagingMaterial, catalogRoutes.updatePackagingMaterial, {
    invalidates: catalogReads,
  });
  const remove = useRouteMutation(catalogRoutes.deletePackagingMaterial, { invalidates: catalogReads });
  const [editing, setEditing] = useState<TPackagingMaterial | 'new' | null>(null);
  const s = ZCreatePackagingMaterial.shape;
  const current = editing && editing !== 'new' ? editing : null;
  return (
    <>
      <DataTable<TPackagingMaterial>
        {...routePage(catalogRoutes.listPackagingMaterials)}
        rowKey="id"
        excel={{ fileName: 'packaging' }}
        toolbar={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('common:crud.add')}
            </Button>
            <Button icon={<PrinterOutlined />} onClick={() => navigate('/package-print')}>
              {t('catalog:print')}
            </Button>
          </>
        }
        columns={[
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('category'), dataIndex: 'category', key: 'category', sorter: true },
          { title: label('quantity'), dataIndex: 'quantity', key: 'quantity', sorter: true, align: 'right' },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, m) => (
              <RowActions
                name={m.code}
                onEdit={() => setEditing(m)}
                onDelete={() => remove.mutateAsync({ params: { id: m.id } })}
              />
            ),
          },
        ]}
      />
      <CrudModal<TCreatePackagingMaterial>
        open={editing !== null}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={current ?? { quantity: 0 }}
        onClose={() => setEditing(null)}
        onSubmit={(body) => save.mutateAsync({ id: current?.id, body })}
      >
        {() => (
          <>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input />
            </Form.Item>
            <Form.Item name="name" label={label('name')}>
              <Input />
            </Form.Item>
            <Form.Item name="category" label={label('category')}>
              <Input />
            </Form.Item>
            <Form.Item name="quantity" label={label('quantity')} rules={[zodRule('quantity', s.quantity)]}>
              <InputNumber min={0} precision={0} />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}
