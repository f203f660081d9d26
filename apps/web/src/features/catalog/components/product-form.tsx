import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  MONTH_CHOICES,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  type TProduct,
  WEIGHT_UNITS,
  ZCreateProduct,
} from '@wms/contracts';
import {
  Button,
  Col,
  DatePicker,
  Divider,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../../shared/forms/field-label';
import { zodRule } from '../../../shared/forms/zod-rule';
import { ProductSelect } from '../../../shared/pickers/product-select';
import { usePlatformOptions, useProviderOptions } from '../../partners/api';
import { useCategoryOptions } from '../api';
import '../i18n';

const s = ZCreateProduct.shape;

/** The product form: every field of spec §3, grouped; components when the product is a combination. */
export function ProductFields({ form, product }: { form: FormInstance; product: TProduct | null }) {
  const { t } = useTranslation('catalog');
  const label = useFieldLabel();
  const categories = useCategoryOptions();
  const providers = useProviderOptions();
  const platforms = usePlatformOptions();
  const type = Form.useWatch('type', form) as string | undefined;
  const months = [
    { value: null, label: t('form.none') },
    ...MONTH_CHOICES.map((m) => ({ value: m, label: t('form.months', { count: m }) })),
  ];
  const known = product?.components.map((c) => ({ value: c.component_id, label: `${c.number} ${c.name}` })) ?? [];
  const col = (node: React.ReactNode, span = 8) => <Col span={span}>{node}</Col>;
  const decimal = (field: string) => (
    <Form.Item
      name={field}
      label={label(field)}
      rules={[zodRule(field, (s as Record<string, import('zod').ZodType>)[field]!)]}
    >
      <InputNumber<string> stringMode min="0" style={{ width: '100%' }} />
    </Form.Item>
  );
  const flag = (field: string) => (
    <Form.Item name={field} label={label(field)} valuePropName="checked">
      <Switch />
    </Form.Item>
  );
  return (
    <>
      <Divider titlePlacement="start">{t('form.basic')}</Divider>
      <Row gutter={16}>
        {col(
          <Form.Item name="number" label={label('number')} rules={[zodRule('number', s.number)]}>
            <Input />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
            <Input />
          </Form.Item>,
          16,
        )}
        {col(
          <Form.Item name="barcode" label={label('barcode')} rules={[zodRule('barcode', s.barcode)]}>
            <Input />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="type" label={label('type')}>
            <Select options={PRODUCT_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))} />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="category_id" label={label('category_id')}>
            <Select allowClear options={categories.data ?? []} />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="unit" label={label('unit')}>
            <Input />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="status" label={label('status')}>
            <Select options={PRODUCT_STATUSES.map((v) => ({ value: v, label: t(`status.${v}`) }))} />
          </Form.Item>,
        )}
      </Row>
      {type === 'combination' ? (
        <>
          <Divider titlePlacement="start">{t('form.components')}</Divider>
          <Form.List name="components">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" style={{ display: 'flex', marginBottom: 8 }}>
                    <Form.Item
                      name={[f.name, 'component_id']}
                      rules={[zodRule('component_id', s.components.unwrap().element.shape.component_id)]}
                    >
                      <ProductSelect type="single" known={known} aria-label={t('form.componentProduct')} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'quantity']}
                      rules={[zodRule('quantity', s.components.unwrap().element.shape.quantity)]}
                    >
                      <InputNumber min={1} precision={0} aria-label={label('quantity')} />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('form.none')} />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ quantity: 1 })}
                  data-testid="add-component"
                >
                  {t('form.addComponent')}
                </Button>
              </>
            )}
          </Form.List>
        </>
      ) : null}
      <Divider titlePlacement="start">{t('form.prices')}</Divider>
      <Row gutter={16}>
        {col(decimal('unit_price'))}
        {col(decimal('selling_price'))}
        {col(decimal('cost'))}
      </Row>
      <Divider titlePlacement="start">{t('form.size')}</Divider>
      <Row gutter={16}>
        {col(decimal('weight'))}
        {col(
          <Form.Item name="weight_unit" label={label('weight_unit')}>
            <Select options={WEIGHT_UNITS.map((v) => ({ value: v, label: v }))} />
          </Form.Item>,
        )}
        {col(flag('volume_required'))}
        {col(decimal('length_cm'))}
        {col(decimal('width_cm'))}
        {col(decimal('height_cm'))}
        {col(flag('fragile'))}
        {col(flag('can_pack_together'))}
      </Row>
      <Divider titlePlacement="start">{t('form.stock')}</Divider>
      <Row gutter={16}>
        {col(
          <Form.Item
            name="safety_stock"
            label={label('safety_stock')}
            rules={[zodRule('safety_stock', s.safety_stock)]}
          >
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>,
        )}
        {col(
          <Form.Item
            name="stocking_days"
            label={label('stocking_days')}
            rules={[zodRule('stocking_days', s.stocking_days)]}
          >
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="allowed_sale_date" label={label('allowed_sale_date')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="shelf_life_months" label={label('shelf_life_months')}>
            <Select options={months} />
          </Form.Item>,
        )}
        {col(
          <Form.Item name="sellable_rule_months" label={label('sellable_rule_months')}>
            <Select options={months} />
          </Form.Item>,
        )}
        {col(flag('requires_serial'))}
      </Row>
      <Divider titlePlacement="start">{t('form.sales')}</Divider>
      <Row gutter={16}>
        {col(flag('allow_shipping'))}
        {col(flag('online_listing'))}
        {col(<span />)}
        {col(
          <Form.Item name="default_logistics_provider_id" label={label('default_logistics_provider_id')}>
            <Select allowClear options={providers.data ?? []} />
          </Form.Item>,
          12,
        )}
        {col(
          <Form.Item name="default_platform_id" label={label('default_platform_id')}>
            <Select allowClear options={platforms.data ?? []} />
          </Form.Item>,
          12,
        )}
      </Row>
    </>
  );
}
