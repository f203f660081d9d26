import { useQuery } from '@tanstack/react-query';
import { returnRoutes, SUPPLIER_RETURN_REASONS, type TSupplierReturnPile, ZCreateSupplierReturn } from '@wms/contracts';
import { App, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../shared/api/route-query';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { zodRule } from '../../../shared/forms/zod-rule';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import { fetchPiles, returnAndStock, supplierReturnPilesKey } from '../api';
import { useReturnLabels } from './labels';

interface TFormValues {
  warehouse_id: string;
  supplier_name: string;
  supplier_contact?: string;
  supplier_phone?: string;
  supplier_address?: string;
  reason: (typeof SUPPLIER_RETURN_REASONS)[number];
  planned: Dayjs;
  remark?: string;
}

/** New return-to-supplier order: the supplier, the reason, and how much of which piles of stock go back. */
export function SupplierReturnFormModal(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const [form] = Form.useForm<TFormValues>();
  const create = useRouteMutation(returnRoutes.createSupplierReturn, { invalidates: returnAndStock });
  const { showError, clearError, formError } = useFormErrors(form);
  const warehouseId = Form.useWatch('warehouse_id', form);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<string | undefined>(undefined);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const s = ZCreateSupplierReturn.shape;

  const piles = useQuery({
    queryKey: [...supplierReturnPilesKey, warehouseId, search, kind],
    enabled: !!warehouseId,
    queryFn: () =>
      fetchPiles({
        warehouse_id: warehouseId!,
        search: search || undefined,
        location_kind: kind,
        page: 1,
        page_size: 100,
      }),
  });

  const onFinish = async (v: TFormValues) => {
    clearError();
    const lines = Object.entries(quantities)
      .filter(([, q]) => q > 0)
      .map(([balance_id, quantity]) => ({ balance_id, quantity }));
    if (lines.length === 0) {
      void message.error(t('supplier.noLines'));
      return;
    }
    try {
      await create.mutateAsync({
        body: {
          warehouse_id: v.warehouse_id,
          supplier_name: v.supplier_name,
          supplier_contact: v.supplier_contact ?? '',
          supplier_phone: v.supplier_phone ?? '',
          supplier_address: v.supplier_address ?? '',
          reason: v.reason,
          planned_date: v.planned.format('YYYY-MM-DD'),
          remark: v.remark ?? '',
          lines,
        },
      });
      void message.success(t('common:messages.saved'));
      setQuantities({});
      props.onClose();
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('supplier.newTitle')}
      width={960}
      destroyOnHidden
      onCancel={props.onClose}
      okText={t('supplier.reserve')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
    >
      {formError}
      <Form<TFormValues>
        form={form}
        layout="vertical"
        initialValues={{ reason: 'defective', planned: dayjs() }}
        onFinish={onFinish}
        data-testid="supplier-return-form"
      >
        <Space wrap size="middle">
          <Form.Item
            name="warehouse_id"
            label={t('fields.warehouse')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <WarehouseSelect style={{ width: 220 }} onChange={() => setQuantities({})} />
          </Form.Item>
          <Form.Item
            name="supplier_name"
            label={t('fields.supplierName')}
            rules={[zodRule('supplier_name', s.supplier_name)]}
          >
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="reason" label={t('fields.reason')} rules={[{ required: true }]}>
            <Select
              style={{ width: 160 }}
              options={SUPPLIER_RETURN_REASONS.map((r) => ({ value: r, label: labels.reason(r) }))}
            />
          </Form.Item>
          <Form.Item name="planned" label={t('fields.dispatchDate')} rules={[{ required: true }]}>
            <DatePicker allowClear={false} />
          </Form.Item>
        </Space>
        <Space wrap size="middle">
          <Form.Item name="supplier_contact" label={t('fields.supplierContact')}>
            <Input style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="supplier_phone" label={t('fields.supplierPhone')}>
            <Input style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="supplier_address" label={t('fields.supplierAddress')}>
            <Input style={{ width: 320 }} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label={t('fields.remark')}>
          <Input.TextArea rows={1} />
        </Form.Item>
      </Form>
      <Space style={{ marginBottom: 8 }}>
        <Input.Search
          allowClear
          placeholder={t('supplier.searchPiles')}
          onSearch={setSearch}
          style={{ width: 280 }}
          disabled={!warehouseId}
        />
        <Select
          allowClear
          placeholder={t('fields.locationKind')}
          value={kind}
          onChange={setKind}
          style={{ width: 160 }}
          options={(['sellable', 'defective', 'expired', 'staging'] as const).map((k) => ({
            value: k,
            label: t(`locationKinds.${k}`),
          }))}
        />
      </Space>
      <Table<TSupplierReturnPile>
        size="small"
        rowKey="balance_id"
        loading={piles.isFetching}
        dataSource={piles.data?.results ?? []}
        pagination={false}
        scroll={{ y: 280 }}
        locale={{ emptyText: warehouseId ? t('common:states.noData') : t('supplier.pickWarehouse') }}
        columns={[
          { title: t('fields.product'), render: (_, p) => `${p.product_number} ${p.product_name}` },
          { title: t('fields.storageLocation'), dataIndex: 'location_code' },
          {
            title: t('fields.locationKind'),
            dataIndex: 'location_kind',
            render: (k: string) => <Tag>{t(`locationKinds.${k as 'sellable'}`)}</Tag>,
          },
          { title: t('fields.expiryDate'), dataIndex: 'expiry_date', render: (d: string | null) => d ?? '—' },
          { title: t('fields.onHand'), dataIndex: 'on_hand', align: 'right' },
          { title: t('fields.available'), dataIndex: 'available', align: 'right' },
          {
            title: t('fields.quantity'),
            render: (_, p) => (
              <InputNumber
                min={0}
                max={p.available}
                precision={0}
                value={quantities[p.balance_id] ?? null}
                onChange={(q) => setQuantities((m) => ({ ...m, [p.balance_id]: Number(q ?? 0) }))}
                aria-label={`${t('fields.quantity')} ${p.product_number} ${p.location_code}`}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}
