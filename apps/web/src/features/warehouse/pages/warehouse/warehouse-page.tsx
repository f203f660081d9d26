import { PlusOutlined } from '@ant-design/icons';
import { type TWarehouse, ZCreateWarehouse } from '@wms/contracts';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import { fetchWarehouses, useDeleteWarehouse, useSaveWarehouse, warehouseKeys } from '../../api';
import { CrudModal, RowActions } from '../../components/crud';
import '../../i18n';

type TForm = { code: string; name: string; address?: string };

/** /warehouse: the seller's warehouses (code, name, address). */
export default function WarehousePage() {
  const { t } = useTranslation(['warehouse', 'common']);
  const label = useFieldLabel();
  const save = useSaveWarehouse();
  const remove = useDeleteWarehouse();
  const [editing, setEditing] = useState<TWarehouse | 'new' | null>(null);
  const s = ZCreateWarehouse.shape;
  return (
    <>
      <DataTable<TWarehouse>
        queryKey={warehouseKeys.warehouses}
        fetchPage={fetchWarehouses}
        rowKey="id"
        excel={{ fileName: 'warehouses' }}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('warehouse:crud.add')}
          </Button>
        }
        columns={[
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('address'), dataIndex: 'address' },
          {
            title: t('warehouse:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, w) => (
              <RowActions
                name={`${w.code} ${w.name}`}
                onEdit={() => setEditing(w)}
                onDelete={() => remove.mutateAsync(w.id)}
              />
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        title={editing === 'new' ? t('warehouse:crud.add') : t('warehouse:crud.edit')}
        initialValues={editing && editing !== 'new' ? editing : {}}
        onClose={() => setEditing(null)}
        onSubmit={(body) => save.mutateAsync({ id: editing && editing !== 'new' ? editing.id : undefined, body })}
      >
        {() => (
          <>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input />
            </Form.Item>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input />
            </Form.Item>
            <Form.Item name="address" label={label('address')}>
              <Input />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}
