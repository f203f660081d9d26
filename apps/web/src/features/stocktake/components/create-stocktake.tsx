import {
  STOCKTAKE_TYPES,
  stocktakeRoutes,
  type TCreateStocktake,
  type TStocktakeType,
  ZCreateStocktake,
} from '@wms/contracts';
import { App, Form, Input, InputNumber, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../shared/api/route-query';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { zodRule } from '../../../shared/forms/zod-rule';
import { LocationSelect } from '../../../shared/pickers/location-select';
import { ProductSelect } from '../../../shared/pickers/product-select';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import { stocktakeReads } from '../api';
import { useStocktakeLabels } from './labels';

type TValues = Omit<TCreateStocktake, 'scope'> & { scope: 'location' | 'product' };

/** New stocktake sheet: what to count (type and scope) and its labels. */
export function CreateStocktakeModal(props: { open: boolean; onClose: (createdId?: string) => void }) {
  const { t } = useTranslation(['stocktake', 'common']);
  const labels = useStocktakeLabels();
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const create = useRouteMutation(stocktakeRoutes.createStocktake, { invalidates: stocktakeReads });
  const { showError, clearError, formError } = useFormErrors(form);
  const type = Form.useWatch('type', form) as TStocktakeType | undefined;
  const scope = Form.useWatch('scope', form) ?? 'location';
  const warehouseId = Form.useWatch('warehouse_id', form) as string | undefined;
  const s = ZCreateStocktake.shape;
  const chosen = type === 'first' || type === 'review' || type === 'third';

  const onFinish = async (v: TValues) => {
    clearError();
    const body: TCreateStocktake = {
      warehouse_id: v.warehouse_id,
      name: v.name,
      year: v.year,
      attribute: v.attribute ?? '',
      type: v.type,
      remark: v.remark ?? '',
      ...(v.type === 'full' ? {} : { scope: v.scope }),
      ...(v.type === 'random' ? { sample_size: v.sample_size } : {}),
      ...(chosen && v.scope === 'location' ? { location_ids: v.location_ids } : {}),
      ...(chosen && v.scope === 'product' ? { product_ids: v.product_ids } : {}),
    };
    try {
      const sheet = await create.mutateAsync({ body });
      void message.success(t('create.created', { number: sheet.number }));
      form.resetFields();
      props.onClose(sheet.id);
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('create.title')}
      destroyOnHidden
      width={640}
      okText={t('create.submit')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={create.isPending}
      onCancel={() => props.onClose()}
      onOk={() => form.submit()}
    >
      {formError}
      <Form<TValues>
        form={form}
        layout="vertical"
        initialValues={{ type: 'full', scope: 'location', year: new Date().getFullYear(), sample_size: 10 }}
        onFinish={onFinish}
        data-testid="stocktake-form"
      >
        <Form.Item
          name="warehouse_id"
          label={t('fields.warehouse')}
          rules={[{ required: true, message: t('create.required') }]}
        >
          <WarehouseSelect data-testid="stocktake-warehouse" />
        </Form.Item>
        <Form.Item name="name" label={t('fields.name')} rules={[zodRule('name', s.name)]}>
          <Input data-testid="stocktake-name" />
        </Form.Item>
        <Form.Item name="year" label={t('fields.year')}>
          <InputNumber min={2000} max={2999} precision={0} />
        </Form.Item>
        <Form.Item name="attribute" label={t('fields.attribute')} extra={t('create.attributeHint')}>
          <Input />
        </Form.Item>
        <Form.Item name="type" label={t('fields.type')} extra={type ? t(`create.typeHints.${type}`) : undefined}>
          <Radio.Group
            optionType="button"
            options={STOCKTAKE_TYPES.map((x) => ({ value: x, label: labels.type(x) }))}
            data-testid="stocktake-type"
          />
        </Form.Item>
        {type && type !== 'full' ? (
          <Form.Item name="scope" label={t('fields.scope')}>
            <Radio.Group
              options={(['location', 'product'] as const).map((x) => ({ value: x, label: labels.scope(x) }))}
            />
          </Form.Item>
        ) : null}
        {type === 'random' ? (
          <Form.Item
            name="sample_size"
            label={scope === 'product' ? t('create.sampleProducts') : t('create.sampleLocations')}
            rules={[zodRule('sample_size', s.sample_size.unwrap())]}
          >
            <InputNumber min={1} precision={0} />
          </Form.Item>
        ) : null}
        {chosen && scope === 'location' ? (
          <Form.Item
            name="location_ids"
            label={t('fields.locations')}
            rules={[{ required: true, message: t('create.required') }]}
          >
            <LocationSelect
              mode="multiple"
              warehouseId={warehouseId}
              activeOnly={false}
              placeholder={warehouseId ? t('create.searchLocations') : t('create.pickWarehouse')}
              data-testid="stocktake-locations"
            />
          </Form.Item>
        ) : null}
        {chosen && scope === 'product' ? (
          <Form.Item
            name="product_ids"
            label={t('fields.products')}
            rules={[{ required: true, message: t('create.required') }]}
          >
            <ProductSelect
              mode="multiple"
              type="single"
              placeholder={t('create.searchProducts')}
              data-testid="stocktake-products"
            />
          </Form.Item>
        ) : null}
        <Form.Item name="remark" label={t('fields.remark')}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
