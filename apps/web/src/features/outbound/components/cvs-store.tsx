import { EnvironmentOutlined } from '@ant-design/icons';
import { CVS_STORE_ID, CVS_SUBTYPES, carrierRoutes, type TCvsSubtype, type TOrderDetail } from '@wms/contracts';
import { App, Button, Descriptions, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../../../shared/api/client';
import { routeKey, useRoute, useRouteMutation } from '../../../shared/api/route-query';
import { errorText } from '../../../shared/forms/error-text';
import { postForm } from '../../../shared/forms/post-form';

/**
 * Convenience-store pickup on the order drawer: the store the parcel goes to (chain, B2C / store-to-store, id, name,
 * address, where it came from). Before the order has its consignment number the store can be chosen on ECPay's store
 * map (the browser goes to ECPay and comes back to this order), typed, or removed (home delivery again).
 */
export function OrderCvsStore(props: { order: TOrderDetail }) {
  const { t } = useTranslation(['outbound']);
  const { message } = App.useApp();
  const o = props.order;
  const [subtype, setSubtype] = useState<TCvsSubtype>('UNIMARTC2C');
  const [typing, setTyping] = useState(false);
  const [form] = Form.useForm<{ store_id: string; store_name: string; store_address: string }>();
  const store = useRoute(carrierRoutes.getOrderCvsStore, { params: { id: o.id } });
  const done = { invalidates: [routeKey(carrierRoutes.getOrderCvsStore, { params: { id: o.id } })] };
  const save = useRouteMutation(carrierRoutes.setOrderCvsStore, done);
  const remove = useRouteMutation(carrierRoutes.deleteOrderCvsStore, done);
  const s = store.data?.store ?? null;
  const locked = !!o.consignment_number;

  const openMap = async () => {
    try {
      const f = await apiCall(carrierRoutes.openCvsMap, { params: { id: o.id }, body: { subtype } });
      postForm(f, '_self');
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await save.mutateAsync({
        params: { id: o.id },
        body: { subtype, store_id: v.store_id, store_name: v.store_name ?? '', store_address: v.store_address ?? '' },
      });
      setTyping(false);
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <div data-testid="order-cvs-store">
      <Typography.Title level={5}>
        <EnvironmentOutlined /> {t('cvs.title')}
      </Typography.Title>
      {s ? (
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label={t('cvs.chain')}>
            <Space size={4}>
              {t(`cvs.subtype.${s.subtype}`)}
              <Tag>{s.c2c ? 'C2C' : 'B2C'}</Tag>
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('cvs.storeId')}>
            <span data-testid="cvs-store-id">{s.store_id}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('cvs.storeName')}>
            <span data-testid="cvs-store-name">{s.store_name || '—'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('cvs.source')}>{t(`cvs.sources.${s.source}`)}</Descriptions.Item>
          <Descriptions.Item label={t('cvs.storeAddress')} span={2}>
            {s.store_address || '—'}
          </Descriptions.Item>
          {s.payment_no ? (
            <Descriptions.Item label={t('cvs.paymentNo')} span={2}>
              {s.payment_no}
              {s.validation_no ? ` ${s.validation_no}` : ''}
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : (
        <Typography.Text type="secondary">{t('cvs.none')}</Typography.Text>
      )}
      {locked ? null : (
        <Space wrap style={{ marginTop: 8 }}>
          <Select<TCvsSubtype>
            value={subtype}
            onChange={setSubtype}
            style={{ width: 220 }}
            data-testid="cvs-subtype"
            options={CVS_SUBTYPES.map((v) => ({ value: v, label: t(`cvs.subtype.${v}`) }))}
          />
          <Button type="primary" onClick={() => void openMap()} data-testid="cvs-open-map">
            {t('cvs.openMap')}
          </Button>
          <Button onClick={() => setTyping((v) => !v)}>{t('cvs.type')}</Button>
          {s ? (
            <Button danger onClick={() => remove.mutate({ params: { id: o.id } })} loading={remove.isPending}>
              {t('cvs.remove')}
            </Button>
          ) : null}
        </Space>
      )}
      {typing && !locked ? (
        <Form form={form} layout="inline" style={{ marginTop: 8 }} initialValues={s ?? {}}>
          <Form.Item
            name="store_id"
            label={t('cvs.storeId')}
            rules={[{ required: true, pattern: CVS_STORE_ID, message: t('cvs.storeIdRule') }]}
          >
            <Input style={{ width: 110 }} />
          </Form.Item>
          <Form.Item name="store_name" label={t('cvs.storeName')}>
            <Input style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="store_address" label={t('cvs.storeAddress')}>
            <Input style={{ width: 240 }} />
          </Form.Item>
          <Button type="primary" onClick={() => void submit()} loading={save.isPending}>
            {t('cvs.save')}
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
