import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ORDER_CATEGORIES,
  ORDER_CHANNELS,
  outboundRoutes,
  PACKAGE_SIZE_CM,
  PACKAGE_SIZES,
  type TCreateOrder,
  TIME_SLOTS,
  type TOrderDetail,
  ZCreateOrder,
} from '@wms/contracts';
import {
  App,
  Button,
  Col,
  DatePicker,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSaveRoute } from '../../../shared/api/route-query';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { zodRule } from '../../../shared/forms/zod-rule';
import { ProductSelect } from '../../../shared/pickers/product-select';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import { outboundReads, usePlatformOptions, useProviderOptions } from '../api';
import { useOrderLabels } from './labels';

type TLine = { product_id?: string; label?: string; quantity?: number; unit_price?: string };
type TValues = Omit<TCreateOrder, 'lines' | 'shipping_date' | 'arrival_date'> & {
  shipping_date?: Dayjs | null;
  arrival_date?: Dayjs | null;
  lines: TLine[];
};

const TEXT_FIELDS = [
  'platform_order_number',
  'third_party_number',
  'consignment_number',
  'cod_amount',
  'total_amount',
] as const;

/** Create an order, or edit one while it is pending export: header fields of spec §3 and the lines. */
export function OrderFormModal(props: { open: boolean; editing: TOrderDetail | null; onClose: () => void }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const save = useSaveRoute(outboundRoutes.createOrder, outboundRoutes.updateOrder, { invalidates: outboundReads });
  const platforms = usePlatformOptions();
  const providers = useProviderOptions();
  const { showError, clearError, formError } = useFormErrors(form);
  const s = ZCreateOrder.shape;
  const e = props.editing;

  const initial: Partial<TValues> = e
    ? {
        ...e,
        shipping_date: e.shipping_date ? dayjs(e.shipping_date) : null,
        arrival_date: e.arrival_date ? dayjs(e.arrival_date) : null,
        cod_amount: e.cod_amount ?? undefined,
        total_amount: e.total_amount ?? undefined,
        lines: e.lines.map((x) => ({
          product_id: x.product_id,
          label: `${x.product_number} ${x.product_name}`,
          quantity: x.quantity,
          unit_price: x.unit_price ?? undefined,
        })),
      }
    : {
        category: 'normal',
        channel: 'manual',
        piece_count: 1,
        cod: false,
        is_cross_border: false,
        lines: [{ quantity: 1 }],
      };

  const onFinish = async (v: TValues) => {
    clearError();
    const body: Record<string, unknown> = {
      ...v,
      shipping_date: v.shipping_date ? v.shipping_date.format('YYYY-MM-DD') : null,
      arrival_date: v.arrival_date ? v.arrival_date.format('YYYY-MM-DD') : null,
      lines: v.lines.map((x) => ({
        product_id: x.product_id,
        quantity: x.quantity,
        unit_price: x.unit_price ? x.unit_price : null,
      })),
    };
    for (const f of TEXT_FIELDS) if (!body[f]) body[f] = null;
    for (const f of ['warehouse_id', 'logistics_provider_id', 'platform_id', 'arrival_time_slot', 'volume'])
      if (!body[f]) body[f] = null;
    try {
      const saved = await save.mutateAsync({ id: e?.id, body: body as TCreateOrder });
      void message.success(t('common:messages.saved'));
      props.onClose();
      return saved;
    } catch (err) {
      showError(err);
    }
  };

  const item = (name: keyof TValues, span = 8, node: React.ReactNode = <Input />, required = false) => (
    <Col xs={24} md={span}>
      <Form.Item
        name={name}
        label={l.field(name)}
        rules={required ? [zodRule(l.field(name), s[name as keyof typeof s] as never)] : undefined}
      >
        {node}
      </Form.Item>
    </Col>
  );

  return (
    <Modal
      open={props.open}
      title={e ? t('form.titleEdit', { number: e.number }) : t('form.titleNew')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={save.isPending}
      width={1000}
      destroyOnHidden
    >
      {formError}
      <Form<TValues> form={form} layout="vertical" initialValues={initial} onFinish={onFinish} data-testid="order-form">
        <Divider titlePlacement="start">{t('form.order')}</Divider>
        <Row gutter={12}>
          {item('platform_order_number')}
          {item('third_party_number')}
          {item('platform_id', 8, <Select allowClear options={platforms.data ?? []} />)}
          {item('channel', 6, <Select options={ORDER_CHANNELS.map((c) => ({ value: c, label: l.channel(c) }))} />)}
          {item('category', 6, <Select options={ORDER_CATEGORIES.map((c) => ({ value: c, label: l.category(c) }))} />)}
          <Col xs={12} md={6}>
            <Form.Item name="is_cross_border" label={l.field('is_cross_border')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          {item('total_amount', 6, <Input inputMode="decimal" />)}
        </Row>
        <Divider titlePlacement="start">{t('form.recipient')}</Divider>
        <Row gutter={12}>
          {item('recipient_name', 8, <Input data-testid="order-recipient-name" />, true)}
          {(['recipient_phone', 'recipient_mobile'] as const).map((name) => (
            <Col xs={24} md={8} key={name}>
              {/* Phone or mobile, one of the two is enough (the server's rule): both are marked, either fills it. */}
              <Form.Item
                name={name}
                label={l.field(name)}
                required
                tooltip={t('form.phoneOrMobile')}
                dependencies={[name === 'recipient_phone' ? 'recipient_mobile' : 'recipient_phone']}
                rules={[
                  ({ getFieldValue }) => ({
                    validator: () =>
                      `${getFieldValue('recipient_phone') ?? ''}${getFieldValue('recipient_mobile') ?? ''}`.trim()
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('form.phoneOrMobile'))),
                  }),
                ]}
              >
                <Input data-testid={name === 'recipient_phone' ? 'order-recipient-phone' : 'order-recipient-mobile'} />
              </Form.Item>
            </Col>
          ))}
          {item('recipient_postcode', 6, <Input data-testid="order-recipient-postcode" />, true)}
          {item('recipient_address', 18, <Input data-testid="order-recipient-address" />, true)}
        </Row>
        <Divider titlePlacement="start">{t('form.sender')}</Divider>
        <Row gutter={12}>
          {item('sender_name', 6)}
          {item('sender_phone', 6)}
          {item('sender_postcode', 4)}
          {item('sender_address', 8)}
        </Row>
        <Divider titlePlacement="start">{t('form.shipping')}</Divider>
        <Row gutter={12}>
          {item('warehouse_id', 6, <WarehouseSelect allowClear pickOnly={!e} data-testid="order-warehouse" />)}
          {item('logistics_provider_id', 6, <Select allowClear options={providers.data ?? []} />)}
          {item('consignment_number', 6)}
          {item('shipping_date', 6, <DatePicker style={{ width: '100%' }} />)}
          {item('arrival_date', 6, <DatePicker style={{ width: '100%' }} />)}
          {item(
            'arrival_time_slot',
            6,
            <Select allowClear options={TIME_SLOTS.map((x) => ({ value: x, label: l.slot(x) }))} />,
          )}
          {item('piece_count', 4, <InputNumber min={1} max={99} precision={0} style={{ width: '100%' }} />)}
          {item(
            'volume',
            8,
            <Select
              allowClear
              options={PACKAGE_SIZES.map((v) => ({ value: v, label: `${v} (${PACKAGE_SIZE_CM[v]} cm)` }))}
            />,
          )}
          <Col xs={12} md={4}>
            <Form.Item name="cod" label={l.field('cod')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          {item('cod_amount', 6, <Input inputMode="decimal" />)}
          {item('shipping_remark', 24, <Input.TextArea rows={2} />)}
        </Row>
        <Divider titlePlacement="start">{t('form.lines')}</Divider>
        <Form.List
          name="lines"
          rules={[
            {
              validator: async (_r, lines: TLine[]) => {
                if (!lines?.length) throw new Error(t('form.linesRequired'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((f, i) => (
                <Space key={f.key} align="baseline" wrap>
                  <Form.Item
                    name={[f.name, 'product_id']}
                    rules={[{ required: true, message: t('form.productRequired') }]}
                  >
                    <ProductSelect
                      status="active"
                      known={[
                        {
                          value: form.getFieldValue(['lines', f.name, 'product_id']),
                          label: form.getFieldValue(['lines', f.name, 'label']),
                        },
                      ]}
                      placeholder={t('form.product')}
                      data-testid={`order-line-product-${i}`}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'quantity']}
                    rules={[{ required: true, message: t('form.quantityRequired') }]}
                  >
                    <InputNumber
                      min={1}
                      max={100000}
                      precision={0}
                      placeholder={l.field('quantity')}
                      data-testid={`order-line-qty-${i}`}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'unit_price']}>
                    <Input placeholder={l.field('unit_price')} inputMode="decimal" style={{ width: 120 }} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('actions.remove')} />
                </Space>
              ))}
              <Form.ErrorList errors={errors} />
              <Button icon={<PlusOutlined />} onClick={() => add({ quantity: 1 })} data-testid="order-add-line">
                {t('actions.addLine')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
