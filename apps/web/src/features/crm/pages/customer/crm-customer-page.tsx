import { crmRoutes, type TCrmCustomer } from '@wms/contracts';
import {
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { routePage, useRoute, useRouteMutation } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import { CrmContract } from '../../../billing/components/crm-contract';
import { CrmListPrices } from '../../../billing/components/plans';
import { CrmReconciliation } from '../../../billing/components/reconciliation';
import { CrmRateCards } from '../../../usage/components/rate-cards';
import { StatementsCard } from '../../../usage/components/statements';
import { UsageCard } from '../../../usage/components/usage-card';
import { crmReads } from '../../api';

function CustomerDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('crm');
  const { message } = App.useApp();
  const customer = useRoute(crmRoutes.getCustomer, id ? { params: { id } } : null);
  const setActive = useRouteMutation(crmRoutes.setCustomerActive, { invalidates: crmReads });
  const reset = useRouteMutation(crmRoutes.resetUserPassword);
  const c = customer.data;
  return (
    <Drawer open={!!id} onClose={onClose} size="large" title={c?.name} destroyOnHidden data-testid="customer-drawer">
      {c ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('customer.active')}>
              <Switch
                checked={c.is_active}
                loading={setActive.isPending}
                data-testid="customer-active"
                onChange={(is_active) =>
                  setActive
                    .mutateAsync({ params: { id: c.id }, body: { is_active } })
                    .catch((err) => message.error(errorText(err)))
                }
              />
            </Descriptions.Item>
            <Descriptions.Item label={t('customer.taxId')}>{c.tax_id}</Descriptions.Item>
            <Descriptions.Item label={t('customer.phone')}>{c.phone}</Descriptions.Item>
            <Descriptions.Item label={t('customer.invoice')}>
              {c.invoice_title} {c.invoice_address}
            </Descriptions.Item>
            <Descriptions.Item label={t('customer.website')}>{c.website}</Descriptions.Item>
            <Descriptions.Item label={t('customer.stockValue')}>
              {c.stock_value} ({c.stock_units})
            </Descriptions.Item>
            <Descriptions.Item label={t('customer.ordersThisMonth')}>{c.orders_this_month}</Descriptions.Item>
          </Descriptions>
          <CrmContract customerId={c.id} />
          <CrmRateCards customerId={c.id} />
          <UsageCard customerId={c.id} />
          <StatementsCard customerId={c.id} />
          <Typography.Title level={5}>{t('customer.users')}</Typography.Title>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={c.users}
            columns={[
              { title: t('customer.userName'), dataIndex: 'name' },
              { title: t('customer.email'), dataIndex: 'email' },
              {
                title: t('customer.active'),
                dataIndex: 'is_active',
                render: (v: boolean) =>
                  v ? <Tag color="green">{t('customer.yes')}</Tag> : <Tag>{t('customer.no')}</Tag>,
              },
              {
                key: 'actions',
                render: (_: unknown, u) => (
                  <Popconfirm
                    title={t('customer.resetConfirm', { email: u.email })}
                    onConfirm={() =>
                      reset
                        .mutateAsync({ params: { id: c.id }, body: { user_id: u.id } })
                        .then(() => message.success(t('customer.resetDone')))
                        .catch((err) => message.error(errorText(err)))
                    }
                  >
                    <Button size="small">{t('customer.resetPassword')}</Button>
                  </Popconfirm>
                ),
              },
            ]}
          />
          <Typography.Title level={5}>{t('customer.warehouses')}</Typography.Title>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={c.warehouses}
            columns={[
              { title: t('rack.warehouse'), dataIndex: 'code' },
              { title: t('customer.warehouseName'), dataIndex: 'name' },
              { title: t('customer.locations'), dataIndex: 'locations' },
              { title: t('customer.units'), dataIndex: 'units' },
            ]}
          />
          <Typography.Title level={5}>{t('customer.activity')}</Typography.Title>
          <Table
            rowKey={(r) => `${r.created_at}-${r.entity}-${r.action}`}
            size="small"
            pagination={false}
            dataSource={c.activity}
            columns={[
              { title: t('customer.when'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
              { title: t('customer.what'), key: 'what', render: (_: unknown, r) => `${r.entity} · ${r.action}` },
              { title: t('customer.who'), dataIndex: 'actor_type' },
            ]}
          />
        </Space>
      ) : null}
    </Drawer>
  );
}

/** /crm/customer: every seller company; the detail drawer carries the operator's actions on it. */
export default function CrmCustomerPage() {
  const { t } = useTranslation('crm');
  const [params, setParams] = useSearchParams();
  const open = params.get('open');
  const show = (id: string | null) => setParams(id ? { open: id } : {}, { replace: true });
  return (
    <>
      <CrmListPrices />
      <DataTable<TCrmCustomer>
        {...routePage(crmRoutes.listCustomers)}
        rowKey="id"
        searchPlaceholder={t('customer.search')}
        excel={{ fileName: 'sellers' }}
        filters={
          <Form.Item name="is_active">
            <Select
              allowClear
              placeholder={t('customer.active')}
              style={{ width: 140 }}
              options={[
                { value: 'true', label: t('customer.yes') },
                { value: 'false', label: t('customer.no') },
              ]}
            />
          </Form.Item>
        }
        columns={[
          {
            title: t('customer.name'),
            dataIndex: 'name',
            key: 'name',
            sorter: true,
            render: (v: string, row) => (
              <Button type="link" style={{ paddingInline: 0 }} onClick={() => show(row.id)} data-testid="customer-open">
                {v}
              </Button>
            ),
          },
          { title: t('customer.email'), dataIndex: 'admin_email' },
          { title: t('customer.phone'), dataIndex: 'phone' },
          { title: t('customer.users'), dataIndex: 'user_count' },
          {
            title: t('customer.active'),
            dataIndex: 'is_active',
            render: (v: boolean) =>
              v ? <Tag color="green">{t('customer.yes')}</Tag> : <Tag color="red">{t('customer.no')}</Tag>,
            exportValue: (r) => (r.is_active ? t('customer.yes') : t('customer.no')),
          },
          { title: t('customer.stockValue'), dataIndex: 'stock_value' },
          {
            title: t('customer.ordersThisMonth'),
            dataIndex: 'orders_this_month',
            key: 'orders_this_month',
            sorter: true,
          },
          { title: t('dashboard.totals.open_tickets'), dataIndex: 'open_tickets', key: 'open_tickets', sorter: true },
          {
            title: t('customer.lastActivity'),
            dataIndex: 'last_activity_at',
            key: 'last_activity_at',
            sorter: true,
            render: (v: string | null) => (v ? formatDateTime(v) : '—'),
          },
        ]}
      />
      {/* Below the sellers' table: the page's first table stays the sellers'. */}
      <div style={{ marginTop: 16 }}>
        <CrmReconciliation />
        <CrmRateCards customerId={null} />
      </div>
      <CustomerDrawer id={open} onClose={() => show(null)} />
    </>
  );
}
