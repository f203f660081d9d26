import { PlusOutlined } from '@ant-design/icons';
import {
  RETURN_CATEGORIES,
  RETURN_STATUSES,
  returnRoutes,
  SUPPLIER_RETURN_STATUSES,
  type TReturnReceipt,
  type TReturnReceiptDetail,
  type TSupplierReturn,
} from '@wms/contracts';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { apiCall } from '../../../../shared/api/client';
import { routePage, useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import { returnAndStock, returnReads } from '../../api';
import { ReturnStatusTag, SupplierStatusTag, useReturnLabels } from '../../components/labels';
import { ReturnFormModal } from '../../components/return-form';
import { SupplierReturnFormModal } from '../../components/supplier-return-form';
import '../../i18n';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';

function printUrl(id: string, kind: 'return' | 'supplier') {
  return kind === 'return' ? `/return-print/${id}` : `/return-print/${id}?kind=supplier`;
}

function ReceiptsTab() {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const remove = useRouteMutation(returnRoutes.deleteReturn, { invalidates: returnReads });
  const [editing, setEditing] = useState<TReturnReceiptDetail | 'new' | null>(null);

  const openEdit = async (id: string) => {
    try {
      setEditing(await apiCall(returnRoutes.getReturn, { params: { id } }));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <>
      <DataTable<TReturnReceipt>
        {...routePage(returnRoutes.listReturns)}
        rowKey="id"
        excel={{ fileName: 'returns' }}
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            <Form.Item name="status">
              <Select
                allowClear
                placeholder={t('fields.status')}
                style={{ width: 150 }}
                options={RETURN_STATUSES.map((s) => ({ value: s, label: labels.status(s) }))}
              />
            </Form.Item>
            <Form.Item name="category">
              <Select
                allowClear
                placeholder={t('fields.category')}
                style={{ width: 170 }}
                options={RETURN_CATEGORIES.map((c) => ({ value: c, label: labels.category(c) }))}
              />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('fields.warehouse')} style={{ width: 180 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="return-new">
            {t('list.new')}
          </Button>
        }
        columns={[
          { title: t('fields.number'), dataIndex: 'number', key: 'number', sorter: true },
          {
            title: t('fields.category'),
            dataIndex: 'category',
            key: 'category',
            sorter: true,
            render: (c: TReturnReceipt['category']) => labels.category(c),
            exportValue: (r) => labels.category(r.category),
          },
          { title: t('fields.plannedDate'), dataIndex: 'planned_date', key: 'planned_date', sorter: true },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            key: 'status',
            sorter: true,
            render: (s: TReturnReceipt['status']) => <ReturnStatusTag status={s} />,
            exportValue: (r) => labels.status(r.status),
          },
          { title: t('fields.orderNumber'), dataIndex: 'order_number' },
          { title: t('fields.consignmentNumber'), dataIndex: 'consignment_number' },
          { title: t('fields.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right' },
          { title: t('fields.goodQuantity'), dataIndex: 'good_quantity', align: 'right' },
          { title: t('fields.defectiveQuantity'), dataIndex: 'defective_quantity', align: 'right' },
          {
            title: t('list.actions'),
            key: 'actions',
            noExport: true,
            render: (_, r) => (
              <Space size={0} wrap>
                {r.status !== 'confirmed' ? (
                  <Button type="link" size="small" onClick={() => navigate(`/return-confirm?id=${r.id}`)}>
                    {t('list.confirm')}
                  </Button>
                ) : null}
                {r.status !== 'confirmed' ? (
                  <Button type="link" size="small" onClick={() => void openEdit(r.id)}>
                    {t('list.edit')}
                  </Button>
                ) : null}
                <Button type="link" size="small" onClick={() => window.open(printUrl(r.id, 'return'), '_blank')}>
                  {t('list.print')}
                </Button>
                {r.status === 'pending' ? (
                  <Popconfirm
                    title={t('list.deleteConfirm', { number: r.number })}
                    okText={t('common:actions.confirm')}
                    cancelText={t('common:actions.cancel')}
                    onConfirm={async () => {
                      try {
                        await remove.mutateAsync({ params: { id: r.id } });
                      } catch (err) {
                        void message.error(errorText(err));
                      }
                    }}
                  >
                    <Button type="link" size="small" danger>
                      {t('list.delete')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing !== null ? (
        <ReturnFormModal open editing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}

function SupplierTab() {
  const { t } = useTranslation(['returns', 'common']);
  const labels = useReturnLabels();
  const { message } = App.useApp();
  const dispatch = useRouteMutation(returnRoutes.dispatchSupplierReturn, { invalidates: returnAndStock });
  const cancel = useRouteMutation(returnRoutes.cancelSupplierReturn, { invalidates: returnAndStock });
  const [creating, setCreating] = useState(false);
  const [dispatching, setDispatching] = useState<TSupplierReturn | null>(null);
  const [consignment, setConsignment] = useState('');

  const run = async (work: () => Promise<unknown>) => {
    try {
      await work();
      void message.success(t('common:messages.saved'));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <>
      <DataTable<TSupplierReturn>
        {...routePage(returnRoutes.listSupplierReturns)}
        rowKey="id"
        excel={{ fileName: 'supplier-returns' }}
        filters={
          <>
            <Form.Item name="status">
              <Select
                allowClear
                placeholder={t('fields.status')}
                style={{ width: 150 }}
                options={SUPPLIER_RETURN_STATUSES.map((s) => ({ value: s, label: labels.supplierStatus(s) }))}
              />
            </Form.Item>
            <Form.Item name="warehouse_id">
              <WarehouseSelect allowClear placeholder={t('fields.warehouse')} style={{ width: 180 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('supplier.new')}
          </Button>
        }
        columns={[
          { title: t('fields.number'), dataIndex: 'number', key: 'number', sorter: true },
          { title: t('fields.supplierName'), dataIndex: 'supplier_name', key: 'supplier_name', sorter: true },
          {
            title: t('fields.reason'),
            dataIndex: 'reason',
            render: (r: TSupplierReturn['reason']) => labels.reason(r),
            exportValue: (r) => labels.reason(r.reason),
          },
          { title: t('fields.dispatchDate'), dataIndex: 'planned_date', key: 'planned_date', sorter: true },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            key: 'status',
            sorter: true,
            render: (s: TSupplierReturn['status']) => <SupplierStatusTag status={s} />,
            exportValue: (r) => labels.supplierStatus(r.status),
          },
          { title: t('fields.warehouse'), dataIndex: 'warehouse_code' },
          { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right' },
          { title: t('fields.consignmentNumber'), dataIndex: 'consignment_number' },
          {
            title: t('list.actions'),
            key: 'actions',
            noExport: true,
            render: (_, r) => (
              <Space size={0} wrap>
                {r.status === 'reserved' ? (
                  <Button type="link" size="small" onClick={() => setDispatching(r)}>
                    {t('supplier.dispatch')}
                  </Button>
                ) : null}
                <Button type="link" size="small" onClick={() => window.open(printUrl(r.id, 'supplier'), '_blank')}>
                  {t('list.print')}
                </Button>
                {r.status === 'reserved' ? (
                  <Popconfirm
                    title={t('supplier.cancelConfirm', { number: r.number })}
                    okText={t('common:actions.confirm')}
                    cancelText={t('common:actions.cancel')}
                    onConfirm={() => run(() => cancel.mutateAsync({ params: { id: r.id } }))}
                  >
                    <Button type="link" size="small" danger>
                      {t('supplier.cancel')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <SupplierReturnFormModal open={creating} onClose={() => setCreating(false)} />
      <Modal
        open={dispatching !== null}
        title={t('supplier.dispatchTitle', { number: dispatching?.number ?? '' })}
        okText={t('supplier.dispatch')}
        cancelText={t('common:actions.cancel')}
        confirmLoading={dispatch.isPending}
        onCancel={() => setDispatching(null)}
        onOk={() =>
          run(async () => {
            await dispatch.mutateAsync({
              params: { id: dispatching!.id },
              body: consignment ? { consignment_number: consignment } : {},
            });
            setDispatching(null);
            setConsignment('');
          })
        }
      >
        <p>{t('supplier.dispatchHint')}</p>
        <Input
          value={consignment}
          onChange={(e) => setConsignment(e.target.value)}
          placeholder={t('fields.consignmentNumber')}
        />
      </Modal>
    </>
  );
}

/** /return: return receipts (register, edit, delete, print) and return-to-supplier orders (reserve, dispatch). */
export default function ReturnPage() {
  const { t } = useTranslation('returns');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'supplier' ? 'supplier' : 'receipts';
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setParams(k === 'supplier' ? { tab: 'supplier' } : {})}
      items={[
        { key: 'receipts', label: t('tabs.receipts'), children: <ReceiptsTab /> },
        { key: 'supplier', label: t('tabs.supplier'), children: <SupplierTab /> },
      ]}
    />
  );
}
