import { ShoppingCartOutlined } from '@ant-design/icons';
import { type TDirectPurchase, type TStoreCatalog, ZDirectPurchase } from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Table,
  Tag,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../../shared/forms/field-label';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { zodRule } from '../../../shared/forms/zod-rule';

type TRecipient = Omit<TDirectPurchase, 'lines'>;

/** Cents of a 2-decimal money string (the catalog's prices), to add up a cart without floating point. */
function cents(v: string | null): number {
  if (!v) return 0;
  const [int = '0', frac = ''] = v.split('.');
  return Number(int) * 100 + Number(`${frac}00`.slice(0, 2));
}
const money = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;

/**
 * Direct purchase: the listed products with price and sellable stock, a cart of quantities, the recipient
 * (prefilled), the delivery method (the seller's carriers) and collect on delivery. The order goes to the warehouse
 * as a pending outbound order; stock is shown, allocation decides.
 */
export function DirectPurchase(props: {
  catalog: TStoreCatalog;
  recipient?: Partial<TRecipient>;
  onSubmit: (body: TDirectPurchase) => Promise<{ number: string; total_amount: string }>;
  closed?: boolean;
}) {
  const { t } = useTranslation('store');
  const label = useFieldLabel();
  const { message } = App.useApp();
  const [form] = Form.useForm<TRecipient>();
  const { showError, clearError, formError } = useFormErrors(form);
  const [cart, setCart] = useState<Record<string, number>>({});
  const [saving, setSaving] = useState(false);
  const s = ZDirectPurchase.shape;
  const lines = Object.entries(cart).filter(([, q]) => q > 0);
  const total = useMemo(
    () =>
      lines.reduce((sum, [id, q]) => {
        const p = props.catalog.products.find((x) => x.id === id);
        return sum + cents(p?.selling_price ?? null) * q;
      }, 0),
    [lines, props.catalog.products],
  );

  const submit = async () => {
    clearError();
    if (lines.length === 0) {
      void message.warning(t('purchase.emptyCart'));
      return;
    }
    let values: TRecipient;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const done = await props.onSubmit({
        ...values,
        cod: values.cod ?? false,
        lines: lines.map(([product_id, quantity]) => ({ product_id, quantity })),
      });
      void message.success(t('purchase.placed', { number: done.number, total: done.total_amount }));
      setCart({});
    } catch (err) {
      showError(err);
    } finally {
      setSaving(false);
    }
  };

  if (props.catalog.products.length === 0) return <Empty description={t('purchase.noProducts')} />;
  return (
    <div data-testid="direct-purchase">
      {props.closed ? (
        <Alert type="warning" showIcon title={t('purchase.closed')} style={{ marginBottom: 16 }} />
      ) : null}
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={props.catalog.products}
        columns={[
          { title: label('product_number'), dataIndex: 'number' },
          { title: label('product_name'), dataIndex: 'name' },
          { title: label('selling_price'), dataIndex: 'selling_price', align: 'right' },
          {
            title: t('purchase.available'),
            dataIndex: 'available',
            align: 'right',
            render: (v: number) => <Tag color={v > 0 ? 'green' : 'red'}>{v}</Tag>,
          },
          {
            title: t('purchase.quantity'),
            key: 'quantity',
            render: (_, p) => {
              const q = cart[p.id] ?? 0;
              return (
                <>
                  <InputNumber
                    min={0}
                    max={9999}
                    precision={0}
                    value={q}
                    aria-label={t('purchase.quantityOf', { product: p.number })}
                    data-testid={`qty-${p.number}`}
                    onChange={(v) => setCart((c) => ({ ...c, [p.id]: Number(v ?? 0) }))}
                  />
                  {q > p.available ? (
                    <div style={{ color: '#d48806', fontSize: 12 }}>{t('purchase.overStock')}</div>
                  ) : null}
                </>
              );
            },
          },
        ]}
      />
      <Card size="small" style={{ marginTop: 16 }} title={t('purchase.recipient')}>
        {formError}
        <Form<TRecipient>
          form={form}
          layout="vertical"
          initialValues={{ cod: false, ...props.recipient }}
          disabled={props.closed}
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item
                name="recipient_name"
                label={label('recipient_name')}
                rules={[zodRule('recipient_name', s.recipient_name)]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="recipient_phone"
                label={label('recipient_phone')}
                rules={[zodRule('recipient_phone', s.recipient_phone)]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="recipient_postcode"
                label={label('recipient_postcode')}
                rules={[zodRule('recipient_postcode', s.recipient_postcode)]}
              >
                <Input />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="recipient_address"
            label={label('recipient_address')}
            rules={[zodRule('recipient_address', s.recipient_address)]}
          >
            <Input />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="logistics_provider_id"
                label={t('purchase.delivery')}
                rules={[zodRule('logistics_provider_id', s.logistics_provider_id)]}
              >
                <Select
                  data-testid="purchase-provider"
                  options={props.catalog.providers.map((p) => ({ value: p.id, label: p.name }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="cod" label={t('purchase.cod')} valuePropName="checked">
                <Checkbox>{t('purchase.codHint')}</Checkbox>
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="shipping_remark" label={label('shipping_remark')}>
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
        <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 16 }}>
          <span data-testid="cart-total">{t('purchase.total', { count: lines.length, total: money(total) })}</span>
          <Button
            type="primary"
            icon={<ShoppingCartOutlined />}
            loading={saving}
            disabled={props.closed}
            onClick={() => void submit()}
            data-testid="purchase-submit"
          >
            {t('purchase.submit')}
          </Button>
        </div>
      </Card>
    </div>
  );
}
