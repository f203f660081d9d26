import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { storeRoutes, type TCreateStoreMember, type TStoreMember, ZCreateStoreMember } from '@wms/contracts';
import { Alert, App, Button, Form, Input, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CrudModal } from '../../../../shared/crud/crud';
import { downloadFile } from '../../../../shared/download';
import { formatDateTime } from '../../../../shared/format';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import { fetchMembers, storeKeys, useResetMemberPassword, useSaveMember, useStoreAdmin } from '../../api';

type TForm = TCreateStoreMember & { password_mode?: 'generate' | 'set' };
const s = ZCreateStoreMember.shape;

/** /store-member: the members of the seller's online store — invite, edit, reset the password, deactivate, export. */
export default function StoreMemberPage() {
  const { t } = useTranslation(['store', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const admin = useStoreAdmin();
  const save = useSaveMember();
  const reset = useResetMemberPassword();
  const [editing, setEditing] = useState<TStoreMember | 'new' | null>(null);
  const current = editing && editing !== 'new' ? editing : null;
  const noStore = admin.isSuccess && !admin.data.store;

  return (
    <>
      {noStore ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('store:members.noStore')}
          action={<Button onClick={() => void navigate('/store-admin')}>{t('store:members.goAdmin')}</Button>}
        />
      ) : null}
      <DataTable<TStoreMember>
        queryKey={storeKeys.members}
        fetchPage={fetchMembers}
        rowKey="id"
        excel={{
          fileName: 'store-members',
          download: (query) => downloadFile(storeRoutes.exportStoreMembers, 'store-members.xlsx', { query }),
        }}
        filters={
          <Form.Item name="is_active" label={label('is_active')}>
            <Select
              allowClear
              style={{ width: 120 }}
              options={[
                { value: 'true', label: t('store:members.active') },
                { value: 'false', label: t('store:members.inactive') },
              ]}
            />
          </Form.Item>
        }
        toolbar={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={noStore}
            onClick={() => setEditing('new')}
            data-testid="member-add"
          >
            {t('store:members.add')}
          </Button>
        }
        columns={[
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('email'), dataIndex: 'email', key: 'email', sorter: true },
          { title: label('phone'), dataIndex: 'phone' },
          { title: label('address'), dataIndex: 'address', render: (_, m) => `${m.postcode} ${m.address}`.trim() },
          {
            title: label('is_active'),
            dataIndex: 'is_active',
            render: (v: boolean) => (
              <Tag color={v ? 'green' : 'default'}>{v ? t('store:members.active') : t('store:members.inactive')}</Tag>
            ),
          },
          {
            title: label('created_at'),
            dataIndex: 'created_at',
            key: 'created_at',
            sorter: true,
            render: (v: string) => formatDateTime(v),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, m) => (
              <Space>
                <Button size="small" onClick={() => setEditing(m)}>
                  {t('common:crud.edit')}
                </Button>
                <Popconfirm
                  title={t('store:members.resetConfirm', { email: m.email })}
                  onConfirm={async () => {
                    await reset.mutateAsync(m.id);
                    void message.success(t('store:members.resetDone', { email: m.email }));
                  }}
                >
                  <Button size="small" icon={<KeyOutlined />}>
                    {t('store:members.reset')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        title={editing === 'new' ? t('store:members.add') : t('common:crud.edit')}
        initialValues={current ?? { is_active: true, password_mode: 'generate' }}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          if (current) {
            await save.mutateAsync({
              id: current.id,
              body: {
                name: v.name,
                phone: v.phone ?? '',
                postcode: v.postcode ?? '',
                address: v.address ?? '',
                is_active: v.is_active ?? true,
              },
            });
            return t('store:members.saved');
          }
          const { password_mode, ...body } = v;
          await save.mutateAsync({ body: { ...body, password: password_mode === 'set' ? v.password : undefined } });
          return t('store:members.invited', { email: v.email });
        }}
      >
        {(form) => (
          <>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input data-testid="member-name" />
            </Form.Item>
            <Form.Item name="email" label={label('email')} rules={current ? [] : [zodRule('email', s.email)]}>
              <Input disabled={!!current} data-testid="member-email" />
            </Form.Item>
            <Form.Item name="phone" label={label('phone')}>
              <Input />
            </Form.Item>
            <Space.Compact block>
              <Form.Item name="postcode" label={label('postcode')} style={{ width: 120 }}>
                <Input />
              </Form.Item>
              <Form.Item name="address" label={label('address')} style={{ flex: 1 }}>
                <Input />
              </Form.Item>
            </Space.Compact>
            <Form.Item
              name="is_active"
              label={label('is_active')}
              valuePropName="checked"
              extra={t('store:members.activeHint')}
            >
              <Switch />
            </Form.Item>
            {current ? null : (
              <>
                <Form.Item name="password_mode" label={label('password')} extra={t('store:members.passwordHint')}>
                  <Select
                    options={[
                      { value: 'generate', label: t('store:members.generate') },
                      { value: 'set', label: t('store:members.setPassword') },
                    ]}
                  />
                </Form.Item>
                <Form.Item noStyle shouldUpdate>
                  {() =>
                    form.getFieldValue('password_mode') === 'set' ? (
                      <Form.Item
                        name="password"
                        rules={[zodRule('password', s.password.unwrap(), { tooShort: 'PASSWORD_TOO_SHORT' })]}
                      >
                        <Input.Password autoComplete="new-password" data-testid="member-password" />
                      </Form.Item>
                    ) : null
                  }
                </Form.Item>
              </>
            )}
          </>
        )}
      </CrudModal>
    </>
  );
}
