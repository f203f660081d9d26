import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  INBOUND_CATEGORIES,
  inboundRoutes,
  type TCreateInboundReceipt,
  type TInboundReceiptDetail,
} from '@wms/contracts';
import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveRoute } from '../../../shared/api/route-query';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { ProductSelect } from '../../../shared/pickers/product-select';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import { inboundReads } from '../api';
import '../i18n';

interface TLineValues {
  product_id?: string;
  quantity?: number;
  expiry_date?: Dayjs | null;
  /** Known from the product pick: whether the line needs an expiry date. */
  shelf_life?: boolean;
  label?: string;
}
interface TValues {
  warehouse_id?: string;
  category: TCreateInboundReceipt['category'];
  planned_date?: Dayjs;
  remark?: string;
  lines: TLineValues[];
}

/** A new receipt's starting point from another screen (/purchase-advice: the advised quantities of chosen rows). */
export interface TReceiptDraft {
  warehouse_id: string | null;
  lines: Array<{ product_id: string; quantity: number; label: string; shelf_life: boolean }>;
}

/** Create or edit a receipt: header and lines; an expiry date is asked for products with a shelf life. */
export function ReceiptFormModal(props: {
  open: boolean;
  receipt?: TInboundReceiptDetail | null;
  draft?: TReceiptDraft | null;
  onClose: () => void;
  onSaved?: (r: TInboundReceiptDetail) => void;
}) {
  const { t } = useTranslation(['inbound', 'common']);
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const save = useSaveRoute(inboundRoutes.createReceipt, inboundRoutes.updateReceipt, { invalidates: inboundReads });
  const { showError, clearError, formError } = useFormErrors(form);
  const [saving, setSaving] = useState(false);
  const r = props.receipt;
  const initial: TValues = r
    ? {
        warehouse_id: r.warehouse_id,
        category: r.category,
        planned_date: dayjs(r.planned_date),
        remark: r.remark,
        lines: r.lines.map((l) => ({
          product_id: l.product_id,
          quantity: l.quantity,
          expiry_date: l.expiry_date ? dayjs(l.expiry_date) : null,
          shelf_life: l.shelf_life_months !== null,
          label: `${l.product_number} ${l.product_name}`,
        })),
      }
    : props.draft
      ? {
          ...(props.draft.warehouse_id ? { warehouse_id: props.draft.warehouse_id } : {}),
          category: 'purchase',
          planned_date: dayjs(),
          lines: props.draft.lines.map((l) => ({ ...l, expiry_date: null })),
        }
      : { category: 'purchase', planned_date: dayjs(), lines: [{}] };

  const submit = async () => {
    clearError();
    let v: TValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const body: TCreateInboundReceipt = {
        warehouse_id: v.warehouse_id!,
        category: v.category,
        planned_date: v.planned_date!.format('YYYY-MM-DD'),
        remark: v.remark || undefined,
        lines: v.lines.map((l) => ({
          product_id: l.product_id!,
          quantity: l.quantity!,
          expiry_date: l.expiry_date ? l.expiry_date.format('YYYY-MM-DD') : null,
        })),
      };
      const saved = await save.mutateAsync({ id: r?.id, body });
      void message.success(t('common:messages.saved'));
      props.onSaved?.(saved);
      props.onClose();
    } catch (err) {
      showError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={r ? t('form.editTitle', { number: r.number }) : t('form.newTitle')}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={saving}
      width={880}
      destroyOnHidden
    >
      {formError}
      <Form<TValues> form={form} layout="vertical" initialValues={initial} preserve={false} data-testid="receipt-form">
        <Space wrap size="middle">
          <Form.Item
            name="warehouse_id"
            label={t('field.warehouse')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <WarehouseSelect autoPick={!r} aria-label={t('field.warehouse')} data-testid="receipt-warehouse" />
          </Form.Item>
          <Form.Item name="category" label={t('field.category')}>
            <Select
              style={{ minWidth: 140 }}
              aria-label={t('field.category')}
              options={INBOUND_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="planned_date"
            label={t('field.plannedDate')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <DatePicker aria-label={t('field.plannedDate')} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label={t('field.remark')}>
          <Input maxLength={500} aria-label={t('field.remark')} />
        </Form.Item>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, i) => (
                <Space key={f.key} align="start" wrap data-testid="receipt-line">
                  <Form.Item
                    name={[f.name, 'product_id']}
                    label={i === 0 ? t('field.product') : undefined}
                    rules={[{ required: true, message: t('form.required') }]}
                  >
                    <ProductSelect
                      type="single"
                      known={
                        initial.lines[f.name]?.product_id
                          ? [{ value: initial.lines[f.name]!.product_id!, label: initial.lines[f.name]!.label ?? '' }]
                          : undefined
                      }
                      onChange={(_, p) =>
                        p
                          ? form.setFieldValue(['lines', f.name, 'shelf_life'], p.shelf_life_months !== null)
                          : undefined
                      }
                      placeholder={t('form.productPlaceholder')}
                      aria-label={t('field.product')}
                      data-testid="line-product"
                      style={{ width: 300 }}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'quantity']}
                    label={i === 0 ? t('field.quantity') : undefined}
                    rules={[{ required: true, message: t('form.required') }]}
                  >
                    <InputNumber min={1} precision={0} aria-label={t('field.quantity')} data-testid="line-quantity" />
                  </Form.Item>
                  <Form.Item noStyle shouldUpdate>
                    {() =>
                      form.getFieldValue(['lines', f.name, 'shelf_life']) ? (
                        <Form.Item
                          name={[f.name, 'expiry_date']}
                          label={i === 0 ? t('field.expiry') : undefined}
                          rules={[{ required: true, message: t('form.expiryRequired') }]}
                        >
                          <DatePicker aria-label={t('field.expiry')} placeholder={t('field.expiry')} />
                        </Form.Item>
                      ) : null
                    }
                  </Form.Item>
                  <Form.Item name={[f.name, 'shelf_life']} hidden>
                    <Input />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('form.removeLine')}
                    disabled={fields.length === 1}
                    onClick={() => remove(f.name)}
                    style={{ marginTop: i === 0 ? 30 : 0 }}
                  />
                </Space>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({})} data-testid="add-line">
                {t('form.addLine')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
