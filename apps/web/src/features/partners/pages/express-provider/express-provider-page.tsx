import { PlusOutlined } from '@ant-design/icons';
import {
  BILLING_BASIS_VALUES,
  CARRIER_TYPES,
  CONTRACT_TERM_VALUES,
  errorMessage,
  partnerRoutes,
  SIZE_CODE_VALUES,
  senderIssue,
  type TCreateLogisticsProvider,
  TEMPERATURE_CODE_VALUES,
  type TLogisticsProvider,
  ZCreateLogisticsProvider,
} from '@wms/contracts';
import { Button, Divider, Form, type FormInstance, Input, Select, Switch, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions } from '../../../../shared/crud/crud';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { getLanguage } from '../../../../shared/preferences/preferences';
import { DataTable } from '../../../../shared/table/data-table';
import { partnerReads } from '../../api';
import '../../i18n';

type TForm = Omit<TCreateLogisticsProvider, 'hash_key' | 'hash_iv'> & { hash_key?: string; hash_iv?: string };

const SENDER_FIELDS = ['sender_name', 'sender_phone', 'sender_postcode', 'sender_address'] as const;

/**
 * A sender field checked as the server checks it when saved (`senderIssue`, the carrier's rules): required once a
 * carrier API is chosen (a consignment cannot be made without it), the first broken rule shown on its own field.
 */
function senderRule(form: FormInstance<TForm>, field: (typeof SENDER_FIELDS)[number]): Rule {
  return {
    validator: async () => {
      const v = form.getFieldsValue();
      const issue = senderIssue(v.carrier_type, {
        name: v.sender_name ?? '',
        phone: v.sender_phone ?? '',
        postcode: v.sender_postcode ?? '',
        address: v.sender_address ?? '',
      });
      if (issue?.field === field) throw new Error(errorMessage(issue.code, getLanguage(), { field }));
    },
  };
}

/** /express-provider: logistics providers; hash key and IV are write-only (shown masked). */
export default function ExpressProviderPage() {
  const { t } = useTranslation(['partners', 'common']);
  const label = useFieldLabel();
  const save = useSaveRoute(partnerRoutes.createLogisticsProvider, partnerRoutes.updateLogisticsProvider, {
    invalidates: partnerReads,
  });
  const remove = useRouteMutation(partnerRoutes.deleteLogisticsProvider, { invalidates: partnerReads });
  const [editing, setEditing] = useState<TLogisticsProvider | 'new' | null>(null);
  const s = ZCreateLogisticsProvider.shape;
  const current = editing && editing !== 'new' ? editing : null;
  const code = (group: 'temperature' | 'size' | 'terms' | 'basis' | 'carrier', v: string | null) =>
    v ? t(`partners:${group}.${v}` as 'partners:terms.11') : '';
  return (
    <>
      <DataTable<TLogisticsProvider>
        {...routePage(partnerRoutes.listLogisticsProviders)}
        rowKey="id"
        excel={{ fileName: 'logistics-providers' }}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('common:crud.add')}
          </Button>
        }
        columns={[
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('merchant_id'), dataIndex: 'merchant_id', key: 'merchant_id', sorter: true },
          { title: label('hash_key'), dataIndex: 'hash_key', noExport: true },
          { title: label('hash_iv'), dataIndex: 'hash_iv', noExport: true },
          {
            title: label('carrier_type'),
            dataIndex: 'carrier_type',
            render: (v) => code('carrier', v ?? 'none'),
          },
          { title: label('sender_name'), dataIndex: 'sender_name' },
          { title: label('contract_type'), dataIndex: 'contract_type', render: (v) => code('terms', v) },
          { title: label('temperature_code'), dataIndex: 'temperature_code', render: (v) => code('temperature', v) },
          { title: label('specification_code'), dataIndex: 'specification_code', render: (v) => code('size', v) },
          { title: label('billing_basis'), dataIndex: 'billing_basis', render: (v) => code('basis', v) },
          {
            title: label('is_active'),
            dataIndex: 'is_active',
            render: (v: boolean) => (
              <Tag color={v ? 'green' : 'default'}>{v ? t('partners:active') : t('partners:inactive')}</Tag>
            ),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, p) => (
              <RowActions
                name={p.code}
                onEdit={() => setEditing(p)}
                onDelete={() => remove.mutateAsync({ params: { id: p.id } })}
              />
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        width={640}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={
          current ? { ...current, hash_key: undefined, hash_iv: undefined } : { is_active: true, carrier_type: null }
        }
        onClose={() => setEditing(null)}
        onSubmit={(v) => {
          // Blank secret fields keep the stored value; the API takes them only when typed in.
          const body = { ...v, hash_key: v.hash_key || undefined, hash_iv: v.hash_iv || undefined };
          return save.mutateAsync({ id: current?.id, body });
        }}
      >
        {(form) => (
          <>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input />
            </Form.Item>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input />
            </Form.Item>
            <Form.Item name="merchant_id" label={label('merchant_id')}>
              <Input />
            </Form.Item>
            <Form.Item
              name="hash_key"
              label={label('hash_key')}
              extra={
                current?.hash_key ? t('partners:secretHint', { masked: current.hash_key }) : t('partners:secretNotSet')
              }
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="hash_iv"
              label={label('hash_iv')}
              extra={
                current?.hash_iv ? t('partners:secretHint', { masked: current.hash_iv }) : t('partners:secretNotSet')
              }
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="carrier_type" label={label('carrier_type')} extra={t('partners:carrierHint')}>
              <Select
                options={[
                  { value: null, label: code('carrier', 'none') },
                  ...CARRIER_TYPES.map((v) => ({ value: v, label: code('carrier', v) })),
                ]}
              />
            </Form.Item>
            <Divider titlePlacement="start" plain>
              {t('partners:senderTitle')}
            </Divider>
            {SENDER_FIELDS.map((f) => (
              <Form.Item
                key={f}
                name={f}
                label={label(f)}
                dependencies={['carrier_type', ...SENDER_FIELDS.filter((x) => x !== f)]}
                rules={[senderRule(form, f)]}
                extra={f === 'sender_name' ? t('partners:senderHint') : undefined}
              >
                <Input />
              </Form.Item>
            ))}
            <Form.Item name="contract_type" label={label('contract_type')}>
              <Select allowClear options={CONTRACT_TERM_VALUES.map((v) => ({ value: v, label: code('terms', v) }))} />
            </Form.Item>
            <Form.Item name="temperature_code" label={label('temperature_code')}>
              <Select
                allowClear
                options={TEMPERATURE_CODE_VALUES.map((v) => ({ value: v, label: code('temperature', v) }))}
              />
            </Form.Item>
            <Form.Item name="specification_code" label={label('specification_code')}>
              <Select allowClear options={SIZE_CODE_VALUES.map((v) => ({ value: v, label: code('size', v) }))} />
            </Form.Item>
            <Form.Item name="billing_basis" label={label('billing_basis')}>
              <Select allowClear options={BILLING_BASIS_VALUES.map((v) => ({ value: v, label: code('basis', v) }))} />
            </Form.Item>
            <Form.Item name="is_active" label={label('is_active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}
