import { PlusOutlined } from '@ant-design/icons';
import {
  partnerRoutes,
  type TCreateEcommercePlatform,
  type TEcommercePlatform,
  ZCreateEcommercePlatform,
} from '@wms/contracts';
import { Button, Form, Input, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions } from '../../../../shared/crud/crud';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import { partnerReads } from '../../api';
import '../../i18n';

/** /ecommerce-channel: e-commerce platforms (code, name, store number, URL, callback enabled). */
export default function EcommerceChannelPage() {
  const { t } = useTranslation(['partners', 'common']);
  const label = useFieldLabel();
  const save = useSaveRoute(partnerRoutes.createEcommercePlatform, partnerRoutes.updateEcommercePlatform, {
    invalidates: partnerReads,
  });
  const remove = useRouteMutation(partnerRoutes.deleteEcommercePlatform, { invalidates: partnerReads });
  const [editing, setEditing] = useState<TEcommercePlatform | 'new' | null>(null);
  const s = ZCreateEcommercePlatform.shape;
  const current = editing && editing !== 'new' ? editing : null;
  return (
    <>
      <DataTable<TEcommercePlatform>
        {...routePage(partnerRoutes.listEcommercePlatforms)}
        rowKey="id"
        excel={{ fileName: 'ecommerce-platforms' }}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('common:crud.add')}
          </Button>
        }
        columns={[
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('store_number'), dataIndex: 'store_number', key: 'store_number', sorter: true },
          { title: label('url'), dataIndex: 'url' },
          {
            title: label('callback_enabled'),
            dataIndex: 'callback_enabled',
            render: (v: boolean) => (
              <Tag color={v ? 'green' : 'default'}>{v ? t('common:crud.yes') : t('common:crud.no')}</Tag>
            ),
            exportValue: (p) => (p.callback_enabled ? t('common:crud.yes') : t('common:crud.no')),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, p) => (
              <RowActions
                name={p.code}
                onEdit={() => setEditing(p)}
                onDelete={() => remove.mutateAsync({ params: { id: p.id } })}
              />
            ),
          },
        ]}
      />
      <CrudModal<TCreateEcommercePlatform>
        open={editing !== null}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={current ?? { callback_enabled: false }}
        onClose={() => setEditing(null)}
        onSubmit={(body) => save.mutateAsync({ id: current?.id, body })}
      >
        {() => (
          <>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input />
            </Form.Item>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input />
            </Form.Item>
            <Form.Item name="store_number" label={label('store_number')}>
              <Input />
            </Form.Item>
            <Form.Item name="url" label={label('url')} rules={[zodRule('url', s.url)]}>
              <Input inputMode="url" />
            </Form.Item>
            <Form.Item name="callback_enabled" label={label('callback_enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}
