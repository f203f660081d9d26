import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CUSTOM_GRANTS,
  LANGUAGES,
  SELLER_ROLES,
  type TCompanyUser,
  type TInviteUser,
  userRoutes,
  ZInviteUser,
} from '@wms/contracts';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tabs,
  Tag,
  Tooltip,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TResponseOf } from '../../../../shared/api/client';
import { routePage, useRoute, useRouteMutation } from '../../../../shared/api/route-query';
import { useProfile } from '../../../../shared/auth/session';
import { CrudModal } from '../../../../shared/crud/crud';
import { downloadFile } from '../../../../shared/download';
import { formatDateTime } from '../../../../shared/format';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import type { TTableQuery } from '../../../../shared/table/list-query';
import { userReads } from '../../api';
import '../../i18n';

type TForm = TInviteUser & { two_factor_required?: boolean };
const s = ZInviteUser.shape;

/** The custom role's ticks: each menu group (and prices) the user may open. */
function GrantChecks() {
  const { t } = useTranslation('users');
  return (
    <Form.Item
      name="menu_access"
      label={t('form.menuAccess')}
      extra={t('form.menuAccessHint')}
      data-testid="user-menu-access"
    >
      <Checkbox.Group options={CUSTOM_GRANTS.map((g) => ({ value: g, label: t(`grants.${g}`) }))} />
    </Form.Item>
  );
}

function UsersTab() {
  const { t } = useTranslation(['users', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const me = useProfile();
  const invite = useRouteMutation(userRoutes.inviteCompanyUser, { invalidates: userReads });
  const update = useRouteMutation(userRoutes.updateCompanyUser, { invalidates: userReads });
  const activate = useRouteMutation(userRoutes.activateCompanyUser, { invalidates: userReads });
  const deactivate = useRouteMutation(userRoutes.deactivateCompanyUser, { invalidates: userReads });
  const sendLink = useRouteMutation(userRoutes.resetCompanyUserPassword, { invalidates: userReads });
  const [editing, setEditing] = useState<TCompanyUser | 'new' | null>(null);
  const current = editing && editing !== 'new' ? editing : null;

  return (
    <>
      <DataTable<TCompanyUser>
        {...routePage(userRoutes.listCompanyUsers)}
        rowKey="id"
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="user-invite">
            {t('users:invite')}
          </Button>
        }
        columns={[
          { title: label('name'), dataIndex: 'name', key: 'name' },
          { title: label('email'), dataIndex: 'email', key: 'email' },
          {
            title: t('users:columns.role'),
            dataIndex: 'seller_role',
            render: (v: TCompanyUser['seller_role'], u) => (
              <Space size={4} wrap>
                <Tag color={v === 'owner' ? 'gold' : 'blue'}>{t(`users:roles.${v}`)}</Tag>
                {v === 'custom' ? u.menu_access.map((g) => <Tag key={g}>{t(`users:grants.${g}`)}</Tag>) : null}
              </Space>
            ),
            exportValue: (u) => t(`users:roles.${u.seller_role}`),
          },
          {
            title: t('users:columns.twoFactor'),
            dataIndex: 'two_factor_enabled',
            render: (v: boolean, u) => (
              <Space size={4}>
                <Tag color={v ? 'green' : 'default'}>{v ? t('users:twoFactor.on') : t('users:twoFactor.off')}</Tag>
                {u.two_factor_required && !v ? <Tag color="orange">{t('users:twoFactor.required')}</Tag> : null}
              </Space>
            ),
            exportValue: (u) => (u.two_factor_enabled ? t('users:twoFactor.on') : t('users:twoFactor.off')),
          },
          {
            title: t('users:columns.lastLogin'),
            dataIndex: 'last_login_at',
            render: (v: string | null) => (v ? formatDateTime(v) : '—'),
          },
          {
            title: t('users:columns.status'),
            dataIndex: 'is_active',
            render: (v: boolean, u) =>
              u.invited ? (
                <Tag color="purple">{t('users:status.invited')}</Tag>
              ) : (
                <Tag color={v ? 'green' : 'default'}>{v ? t('users:status.active') : t('users:status.inactive')}</Tag>
              ),
            exportValue: (u) =>
              u.invited
                ? t('users:status.invited')
                : u.is_active
                  ? t('users:status.active')
                  : t('users:status.inactive'),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            // Always in view (long Japanese and English labels otherwise push it past a 1366 px screen's edge).
            fixed: 'right',
            render: (_, u) => (
              <Space size={4}>
                <Button size="small" onClick={() => setEditing(u)} data-testid={`user-edit-${u.email}`}>
                  {t('common:crud.edit')}
                </Button>
                <Popconfirm
                  title={t('users:linkConfirm', { email: u.email })}
                  onConfirm={async () => {
                    await sendLink.mutateAsync({ params: { id: u.id } });
                    void message.success(t('users:linkSent', { email: u.email }));
                  }}
                  disabled={!u.is_active}
                >
                  {/* An icon with its label as tooltip and accessible name: the column stays narrow in every language. */}
                  <Tooltip title={u.invited ? t('users:resendInvite') : t('users:sendLink')}>
                    <Button
                      size="small"
                      icon={<KeyOutlined />}
                      disabled={!u.is_active}
                      aria-label={u.invited ? t('users:resendInvite') : t('users:sendLink')}
                      data-testid={`user-link-${u.email}`}
                    />
                  </Tooltip>
                </Popconfirm>
                {u.id === me?.id ? null : (
                  <Popconfirm
                    title={u.is_active ? t('users:deactivateConfirm', { name: u.name }) : t('users:activate')}
                    onConfirm={async () => {
                      await (u.is_active ? deactivate : activate).mutateAsync({ params: { id: u.id } });
                      void message.success(u.is_active ? t('users:deactivated') : t('users:activated'));
                    }}
                  >
                    <Button size="small" danger={u.is_active} data-testid={`user-toggle-${u.email}`}>
                      {u.is_active ? t('users:deactivate') : t('users:activate')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        title={editing === 'new' ? t('users:invite') : t('common:crud.edit')}
        initialValues={current ?? { seller_role: 'office', menu_access: [] }}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          if (current) {
            await update.mutateAsync({
              params: { id: current.id },
              body: {
                name: v.name,
                seller_role: v.seller_role,
                menu_access: v.menu_access ?? [],
                two_factor_required: v.two_factor_required ?? false,
              },
            });
            return t('users:saved');
          }
          await invite.mutateAsync({ body: { ...v, menu_access: v.menu_access ?? [] } });
          return t('users:invited', { email: v.email });
        }}
      >
        {() => (
          <>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input data-testid="user-name" />
            </Form.Item>
            <Form.Item name="email" label={label('email')} rules={current ? [] : [zodRule('email', s.email)]}>
              <Input disabled={!!current} data-testid="user-email" />
            </Form.Item>
            <Form.Item name="seller_role" label={t('users:columns.role')} extra={t('users:form.roleHint')}>
              <Select
                data-testid="user-role"
                options={SELLER_ROLES.map((r) => ({ value: r, label: t(`users:roles.${r}`) }))}
              />
            </Form.Item>
            <Form.Item noStyle shouldUpdate={(a, b) => a.seller_role !== b.seller_role}>
              {({ getFieldValue }) => (getFieldValue('seller_role') === 'custom' ? <GrantChecks /> : null)}
            </Form.Item>
            {current ? (
              <Form.Item name="two_factor_required" label={t('users:form.requireTwoFactor')} valuePropName="checked">
                <Switch />
              </Form.Item>
            ) : (
              <Form.Item name="language" label={t('users:form.language')}>
                <Select allowClear options={LANGUAGES.map((l) => ({ value: l, label: t(`users:languages.${l}`) }))} />
              </Form.Item>
            )}
          </>
        )}
      </CrudModal>
    </>
  );
}

/** Filters as the form holds them → the query the server takes (date range → date_from/date_to). */
function toAuditQuery(q: TTableQuery): TTableQuery {
  const { range, ...rest } = q as TTableQuery & { range?: [Dayjs, Dayjs] | null };
  return { ...rest, date_from: range?.[0]?.format('YYYY-MM-DD'), date_to: range?.[1]?.format('YYYY-MM-DD') };
}

type TAuditRow = TResponseOf<typeof userRoutes.listAuditTrail>['results'][number];

function AuditTab() {
  const { t } = useTranslation('users');
  const users = useRoute(userRoutes.listCompanyUsers, { query: { page: 1, page_size: 100 } });
  const show = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
  return (
    <DataTable<TAuditRow>
      {...routePage(userRoutes.listAuditTrail, {}, toAuditQuery)}
      rowKey={(r) => String(r.id)}
      noSearch
      excel={{
        fileName: 'audit-trail',
        download: (query) =>
          downloadFile(userRoutes.exportAuditTrail, 'audit-trail.xlsx', { query: toAuditQuery(query) }),
      }}
      filters={
        <>
          <Form.Item name="user_id">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('audit.user')}
              aria-label={t('audit.user')}
              style={{ minWidth: 160 }}
              options={(users.data?.results ?? []).map((u) => ({ value: u.id, label: u.name }))}
            />
          </Form.Item>
          <Form.Item name="entity">
            <Input allowClear placeholder={t('audit.entity')} aria-label={t('audit.entity')} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="entity_id">
            <Input
              allowClear
              placeholder={t('audit.entityId')}
              aria-label={t('audit.entityId')}
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="range">
            <DatePicker.RangePicker aria-label={t('audit.date')} />
          </Form.Item>
        </>
      }
      columns={[
        {
          title: t('audit.time'),
          dataIndex: 'created_at',
          render: (v: string) => formatDateTime(v),
        },
        {
          title: t('audit.user'),
          dataIndex: 'actor_name',
          render: (v: string | null, r) => v ?? t(`audit.actors.${r.actor_type}` as never),
        },
        { title: t('audit.action'), dataIndex: 'action' },
        { title: t('audit.entity'), dataIndex: 'entity' },
        { title: t('audit.entityId'), dataIndex: 'entity_id', render: (v: string | null) => <code>{v}</code> },
        {
          title: t('audit.change'),
          key: 'change',
          render: (_, r) => (
            <span style={{ fontSize: 12, wordBreak: 'break-all' }}>
              {show(r.before)}
              {r.before !== null && r.after !== null ? ' → ' : ''}
              {show(r.after)}
            </span>
          ),
          exportValue: (r) => `${show(r.before)} → ${show(r.after)}`,
        },
      ]}
    />
  );
}

/** /users: the seller's admin invites and manages the company's users and reads the audit trail. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  return (
    <Tabs
      items={[
        { key: 'users', label: t('tabs.users'), children: <UsersTab /> },
        { key: 'audit', label: t('tabs.audit'), children: <AuditTab /> },
      ]}
    />
  );
}
