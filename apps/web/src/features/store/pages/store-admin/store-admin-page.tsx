import { EditOutlined, UploadOutlined } from '@ant-design/icons';
import {
  errorMessage,
  STORE_LOGO_MAX_CHARS,
  type TSaveStore,
  type TStoreOrder,
  type TStoreProduct,
  ZMoney,
  ZSaveStore,
} from '@wms/contracts';
import { Alert, App, Button, Card, Form, Input, Space, Switch, Tabs, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudModal } from '../../../../shared/crud/crud';
import { formatDateTime } from '../../../../shared/format';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { useFormErrors } from '../../../../shared/forms/use-form-errors';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { getLanguage } from '../../../../shared/preferences/preferences';
import { DataTable } from '../../../../shared/table/data-table';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { OrderStatusTag } from '../../../outbound/components/labels';
import {
  checkShortUrl,
  fetchStoreOrders,
  fetchStoreProducts,
  storeKeys,
  useSaveStore,
  useStoreAdmin,
  useUpdateListing,
} from '../../api';

const s = ZSaveStore.shape;

/** The member login address of a short URL on this site. */
export const loginUrlOf = (shortUrl: string) => `${window.location.origin}/store/login/${shortUrl}`;

function StoreSettings() {
  const { t } = useTranslation('store');
  const label = useFieldLabel();
  const { message } = App.useApp();
  const admin = useStoreAdmin();
  const save = useSaveStore();
  const [form] = Form.useForm<TSaveStore>();
  const { showError, clearError, formError } = useFormErrors(form);
  const shortUrl = Form.useWatch('short_url', form) ?? '';
  const logo = Form.useWatch('logo', form) ?? '';
  const fileInput = useRef<HTMLInputElement>(null);
  const store = admin.data?.store ?? null;

  useEffect(() => {
    if (store) form.setFieldsValue(store);
  }, [store, form]);

  if (admin.isPending) return <PageLoading />;
  return (
    <Card title={t('admin.settings')} data-testid="store-settings">
      {store ? null : <Alert type="info" showIcon title={t('admin.notCreated')} style={{ marginBottom: 16 }} />}
      {formError}
      <Form<TSaveStore>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{ name: '', short_url: '', description: '', logo: '', is_open: false }}
        onFinish={async (values) => {
          clearError();
          try {
            await save.mutateAsync(values);
            void message.success(t('admin.saved'));
          } catch (err) {
            showError(err);
          }
        }}
      >
        <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
          <Input data-testid="store-name-input" />
        </Form.Item>
        <Form.Item
          name="short_url"
          label={label('short_url')}
          hasFeedback
          validateDebounce={300}
          extra={shortUrl ? t('admin.loginLink', { url: loginUrlOf(shortUrl.toLowerCase()) }) : t('admin.shortUrlHint')}
          rules={[
            zodRule('short_url', s.short_url),
            {
              validator: async (_r, value: string) => {
                if (!value || !s.short_url.safeParse(value).success) return;
                const answer = await checkShortUrl(value);
                if (!answer.available)
                  throw new Error(errorMessage('DUPLICATE_VALUE', getLanguage(), { field: label('short_url') }));
              },
            },
          ]}
        >
          <Input data-testid="store-short-url" addonBefore="/store/login/" />
        </Form.Item>
        <Form.Item name="description" label={label('description')}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="logo" label={label('logo')} extra={t('admin.logoHint')}>
          <Space>
            {logo ? <img src={logo} alt={label('logo')} style={{ height: 48, maxWidth: 160 }} /> : null}
            <Button icon={<UploadOutlined />} onClick={() => fileInput.current?.click()}>
              {t('admin.chooseLogo')}
            </Button>
            {logo ? <Button onClick={() => form.setFieldValue('logo', '')}>{t('admin.removeLogo')}</Button> : null}
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/webp"
              style={{ display: 'none' }}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (!file) return;
                const reader = new FileReader();
                reader.onload = () => {
                  const url = String(reader.result ?? '');
                  if (url.length > STORE_LOGO_MAX_CHARS) void message.error(t('admin.logoTooLarge'));
                  else form.setFieldValue('logo', url);
                };
                reader.readAsDataURL(file);
              }}
            />
          </Space>
        </Form.Item>
        <Form.Item name="is_open" label={t('admin.open')} valuePropName="checked" extra={t('admin.openHint')}>
          <Switch data-testid="store-open" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="store-save">
          {store ? t('admin.save') : t('admin.create')}
        </Button>
      </Form>
      {store ? (
        <Typography.Paragraph style={{ marginTop: 24 }} copyable={{ text: loginUrlOf(store.short_url) }}>
          {t('admin.memberLogin')}: <a href={loginUrlOf(store.short_url)}>{loginUrlOf(store.short_url)}</a>
        </Typography.Paragraph>
      ) : null}
    </Card>
  );
}

type TListingForm = { online_listing: boolean; selling_price: string };

function ListedProducts() {
  const { t } = useTranslation(['store', 'common']);
  const label = useFieldLabel();
  const update = useUpdateListing();
  const [editing, setEditing] = useState<TStoreProduct | null>(null);
  return (
    <>
      <DataTable<TStoreProduct>
        queryKey={storeKeys.products}
        fetchPage={fetchStoreProducts}
        rowKey="id"
        excel={{ fileName: 'store-products' }}
        columns={[
          { title: label('product_number'), dataIndex: 'number', key: 'number', sorter: true },
          { title: label('product_name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: t('store:purchase.available'), dataIndex: 'available', align: 'right' },
          { title: label('selling_price'), dataIndex: 'selling_price', key: 'selling_price', align: 'right' },
          {
            title: label('online_listing'),
            dataIndex: 'online_listing',
            exportValue: (p) => (p.online_listing ? t('store:admin.listed') : ''),
            render: (v: boolean, p) =>
              v ? (
                <Tag color={p.orderable ? 'green' : 'orange'}>
                  {p.orderable ? t('store:admin.listed') : t('store:admin.notOrderable')}
                </Tag>
              ) : (
                <Tag>{t('store:admin.unlisted')}</Tag>
              ),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, p) => (
              <Button
                size="small"
                icon={<EditOutlined />}
                onClick={() => setEditing(p)}
                data-testid={`list-${p.number}`}
              >
                {t('common:crud.edit')}
              </Button>
            ),
          },
        ]}
      />
      <CrudModal<TListingForm>
        open={editing !== null}
        title={editing ? `${editing.number} ${editing.name}` : ''}
        initialValues={{ online_listing: editing?.online_listing ?? true, selling_price: editing?.selling_price ?? '' }}
        onClose={() => setEditing(null)}
        onSubmit={(v) =>
          update.mutateAsync({
            id: editing!.id,
            online_listing: v.online_listing,
            selling_price: v.selling_price?.trim() ? v.selling_price.trim() : null,
          })
        }
      >
        {() => (
          <>
            <Form.Item name="online_listing" label={label('online_listing')} valuePropName="checked">
              <Switch data-testid="listing-switch" />
            </Form.Item>
            <Form.Item
              name="selling_price"
              label={label('selling_price')}
              rules={[zodRule('selling_price', ZMoney.optional().or(ZMoney.length(0)))]}
            >
              <Input inputMode="decimal" data-testid="listing-price" />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}

/** The store's orders (members' and the seller's own direct purchases). */
export function StoreOrdersTable() {
  const { t } = useTranslation('store');
  const label = useFieldLabel();
  return (
    <DataTable<TStoreOrder>
      queryKey={storeKeys.orders}
      fetchPage={fetchStoreOrders}
      rowKey="id"
      excel={{ fileName: 'store-orders' }}
      columns={[
        { title: label('order_number'), dataIndex: 'number' },
        { title: label('created_at'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
        {
          title: t('orders.member'),
          dataIndex: 'member_name',
          exportValue: (o) => o.member_email ?? t('orders.seller'),
          render: (_, o) => (o.member_email ? `${o.member_name} <${o.member_email}>` : t('orders.seller')),
        },
        { title: label('recipient_name'), dataIndex: 'recipient_name' },
        {
          title: t('orders.items'),
          key: 'lines',
          exportValue: (o) => o.lines.map((l) => `${l.product_number}×${l.quantity}`).join(', '),
          render: (_, o) => o.lines.map((l) => `${l.product_number} × ${l.quantity}`).join(', '),
        },
        { title: label('total_amount'), dataIndex: 'total_amount', align: 'right' },
        { title: label('status'), dataIndex: 'status', render: (v) => <OrderStatusTag status={v} /> },
        { title: label('consignment_number'), dataIndex: 'consignment_number' },
      ]}
    />
  );
}

/** /store-admin: the seller's online store, its listed products and its orders. */
export default function StoreAdminPage() {
  const { t } = useTranslation('store');
  return (
    <Tabs
      items={[
        { key: 'settings', label: t('admin.settings'), children: <StoreSettings /> },
        { key: 'products', label: t('admin.products'), children: <ListedProducts /> },
        { key: 'orders', label: t('admin.orders'), children: <StoreOrdersTable /> },
      ]}
    />
  );
}
