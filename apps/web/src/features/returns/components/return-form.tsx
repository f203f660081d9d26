import { DeleteOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  RETURN_CATEGORIES,
  returnRoutes,
  type TCreateReturnReceipt,
  type TReturnReceiptDetail,
  ZCreateReturnReceipt,
} from '@wms/contracts';
import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveRoute } from '../../../shared/api/route-query';
import { errorText } from '../../../shared/forms/error-text';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { zodRule } from '../../../shared/forms/zod-rule';
import { ProductSelect } from '../../../shared/pickers/product-select';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import { lookupOrder, returnReads } from '../api';
import { useReturnLabels } from './labels';

interface TLineValue {
  product_id?: string;
  product_label?: string;
  quantity?: number;
  expiry?: Dayjs | null;
}

interface TFormValues {
  warehouse_id: string;
  category: TCreateReturnReceipt['category'];
  planned: Dayjs;
  order_id?: string | null;
  order_number?: string;
  consignment_number?: string;
  remark?: string;
  lines: TLineValue[];
}

/** Create or edit a return receipt: header, the original order (looked up by its number), expected lines. */
export function ReturnFormModal(props: { open: boolean; editing: TReturnReceiptDetail | null; onClose: () => void }) {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const [form] = Form.useForm<TFormValues>();
  const save = useSaveRoute(returnRoutes.createReturn, returnRoutes.updateReturn, { invalidates: returnReads });
  const { showError, clearError, formError } = useFormErrors(form);
  const [orderCode, setOrderCode] = useState('');
  const [looking, setLooking] = useState(false);
  const s = ZCreateReturnReceipt.shape;

  const initial: Partial<TFormValues> = props.editing
    ? {
        warehouse_id: props.editing.warehouse_id,
        category: props.editing.category,
        planned: dayjs(props.editing.planned_date),
        order_id: props.editing.order_id,
        order_number: props.editing.order_number,
        consignment_number: props.editing.consignment_number,
        remark: props.editing.remark,
        lines: props.editing.lines.map((l) => ({
          product_id: l.product_id,
          product_label: `${l.product_number} ${l.product_name}`,
          quantity: l.quantity,
          expiry: l.expiry_date ? dayjs(l.expiry_date) : null,
        })),
      }
    : { category: 'customer_return', planned: dayjs(), lines: [{ quantity: 1 }] };

  const onLookup = async () => {
    if (!orderCode.trim()) return;
    setLooking(true);
    try {
      const found = await lookupOrder(orderCode.trim());
      form.setFieldsValue({
        order_id: found.order_id,
        order_number: found.order_number,
        consignment_number: found.consignment_number,
        ...(found.warehouse_id ? { warehouse_id: found.warehouse_id } : {}),
        lines: found.lines.map((l) => ({
          product_id: l.product_id,
          product_label: `${l.product_number} ${l.product_name}`,
          quantity: l.quantity,
          expiry: l.expiry_date ? dayjs(l.expiry_date) : null,
        })),
      });
      if (found.returns.length)
        void message.info(t('form.earlierReturns', { numbers: found.returns.map((x) => x.number).join(', ') }));
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setLooking(false);
    }
  };

  const onFinish = async (v: TFormValues) => {
    clearError();
    const body: TCreateReturnReceipt = {
      warehouse_id: v.warehouse_id,
      category: v.category,
      planned_date: v.planned.format('YYYY-MM-DD'),
      order_id: v.order_id ?? null,
      order_number: v.order_number ?? '',
      consignment_number: v.consignment_number ?? '',
      remark: v.remark ?? '',
      lines: (v.lines ?? []).map((l) => ({
        product_id: l.product_id!,
        quantity: l.quantity!,
        expiry_date: l.expiry ? l.expiry.format('YYYY-MM-DD') : null,
      })),
    };
    try {
      await save.mutateAsync({ id: props.editing?.id, body });
      void message.success(t('common:messages.saved'));
      props.onClose();
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Modal
      open={props.open}
      title={props.editing ? t('form.editTitle', { number: props.editing.number }) : t('form.newTitle')}
      width={880}
      destroyOnHidden
      onCancel={props.onClose}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
    >
      {formError}
      <Form<TFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={onFinish}
        data-testid="return-form"
      >
        <Space wrap align="end" style={{ marginBottom: 8 }}>
          <Form.Item label={t('form.lookupOrder')} style={{ marginBottom: 0 }}>
            <Input
              value={orderCode}
              onChange={(e) => setOrderCode(e.target.value)}
              onPressEnter={(e) => {
                e.preventDefault();
                void onLookup();
              }}
              placeholder={t('form.lookupPlaceholder')}
              data-testid="return-order-code"
              style={{ width: 260 }}
            />
          </Form.Item>
          <Button icon={<SearchOutlined />} loading={looking} onClick={() => void onLookup()}>
            {t('form.lookup')}
          </Button>
        </Space>
        <Space wrap size="middle" style={{ width: '100%' }}>
          <Form.Item
            name="warehouse_id"
            label={t('fields.warehouse')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <WarehouseSelect style={{ width: 220 }} data-testid="return-warehouse" />
          </Form.Item>
          <Form.Item name="category" label={t('fields.category')} rules={[{ required: true }]}>
            <Select
              style={{ width: 200 }}
              options={RETURN_CATEGORIES.map((c) => ({ value: c, label: labels.category(c) }))}
              data-testid="return-category"
            />
          </Form.Item>
          <Form.Item
            name="planned"
            label={t('fields.plannedDate')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <DatePicker allowClear={false} />
          </Form.Item>
        </Space>
        <Form.Item name="order_id" hidden>
          <Input />
        </Form.Item>
        <Space wrap size="middle" style={{ width: '100%' }}>
          <Form.Item
            name="order_number"
            label={t('fields.orderNumber')}
            rules={[zodRule('order_number', s.order_number)]}
          >
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item
            name="consignment_number"
            label={t('fields.consignmentNumber')}
            rules={[zodRule('consignment_number', s.consignment_number)]}
          >
            <Input style={{ width: 220 }} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label={t('fields.remark')} rules={[zodRule('remark', s.remark)]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <div data-testid="return-lines">
              {fields.map((field, i) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item
                    name={[field.name, 'product_id']}
                    label={i === 0 ? t('fields.product') : undefined}
                    rules={[{ required: true, message: t('form.required') }]}
                  >
                    <ProductSelect
                      type="single"
                      known={[
                        {
                          value: form.getFieldValue(['lines', field.name, 'product_id']),
                          label: form.getFieldValue(['lines', field.name, 'product_label']),
                        },
                      ]}
                      placeholder={t('form.productPlaceholder')}
                      data-testid={`return-line-product-${i}`}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'quantity']}
                    label={i === 0 ? t('fields.quantity') : undefined}
                    rules={[{ required: true, message: t('form.required') }]}
                  >
                    <InputNumber min={1} precision={0} data-testid={`return-line-quantity-${i}`} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'expiry']} label={i === 0 ? t('fields.expiryDate') : undefined}>
                    <DatePicker placeholder={t('form.expiryOptional')} />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('form.removeLine')}
                    disabled={fields.length === 1}
                    onClick={() => remove(field.name)}
                    style={{ marginTop: i === 0 ? 30 : 0 }}
                  />
                </Space>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({ quantity: 1 })}>
                {t('form.addLine')}
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
