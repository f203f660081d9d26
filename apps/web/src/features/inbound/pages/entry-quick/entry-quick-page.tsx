import { inboundRoutes, type TInboundReceiptDetail, type TProduct } from '@wms/contracts';
import { Alert, App, Button, Card, DatePicker, Form, InputNumber, type InputRef, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ComponentRef, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenTitle } from '../../../../routes/screen-title';
import { useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen, ScanStep } from '../../../../shared/handheld/handheld';
import { lookupProduct } from '../../../../shared/pickers/api';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { inboundAndStock } from '../../api';
import '../../i18n';

/**
 * /entry-quick, scanner-first: scan the product, type the quantity (and the expiry of a shelf-life product), scan the
 * location; the last Enter creates and confirms the receipt in one step. The next scan starts again.
 */
export default function EntryQuickPage() {
  const { t } = useTranslation(['inbound', 'nav', 'common']);
  const { message } = App.useApp();
  const quick = useRouteMutation(inboundRoutes.quickInbound, { invalidates: inboundAndStock });
  const [warehouseId, setWarehouseId] = useState<string>();
  const [code, setCode] = useState('');
  const [product, setProduct] = useState<TProduct | null>(null);
  const [quantity, setQuantity] = useState<number | null>(1);
  const [expiry, setExpiry] = useState<Dayjs | null>(null);
  const [location, setLocation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<TInboundReceiptDetail[]>([]);
  const productRef = useRef<InputRef>(null);
  const qtyRef = useRef<ComponentRef<typeof InputNumber>>(null);
  const locationRef = useRef<InputRef>(null);
  const needsExpiry = product?.shelf_life_months != null;

  const onProduct = async (c: string) => {
    setProblem(null);
    try {
      const p = await lookupProduct(c);
      setProduct(p);
      setExpiry(null);
      qtyRef.current?.focus();
      return true;
    } catch (err) {
      setProduct(null);
      setProblem(errorText(err));
      return false;
    }
  };

  const submit = async (locationCode: string) => {
    setProblem(null);
    if (!product) {
      productRef.current?.focus();
      setProblem(t('quick.productFirst'));
      return false;
    }
    if (needsExpiry && !expiry) {
      setProblem(t('form.expiryRequired'));
      return false;
    }
    try {
      const r = await quick.mutateAsync({
        body: {
          warehouse_id: warehouseId,
          code: product.number,
          category: 'purchase',
          quantity: quantity ?? Number.NaN,
          location_code: locationCode,
          expiry_date: needsExpiry ? expiry!.format('YYYY-MM-DD') : undefined,
        },
      });
      setDone((d) => [r, ...d].slice(0, 20));
      void message.success(t('quick.done', { number: r.number }));
      setCode('');
      setProduct(null);
      setQuantity(1);
      setExpiry(null);
      setLocation('');
      productRef.current?.focus();
      return true;
    } catch (err) {
      setProblem(errorText(err));
      return false;
    }
  };

  return (
    <FloorScreen>
      <Card title={screenTitle('/entry-quick')}>
        <ScanStep
          step={product ? t('quick.scanLocation') : t('quick.scanProduct')}
          progress={t('common:handheld.step', { n: product ? 2 : 1, total: 2 })}
          target={product ? product.number : undefined}
          detail={product ? `${product.name} × ${quantity ?? ''}` : undefined}
        />
        <Form layout="vertical" style={{ maxWidth: 520 }} onSubmitCapture={(e) => e.preventDefault()}>
          <Form.Item label={t('field.warehouse')}>
            <WarehouseSelect value={warehouseId} onChange={setWarehouseId} autoPick aria-label={t('field.warehouse')} />
          </Form.Item>
          <Form.Item label={t('quick.scanProduct')} extra={product ? `${product.number} ${product.name}` : undefined}>
            <ScanInput
              ref={productRef}
              autoFocus
              value={code}
              onChange={setCode}
              onScan={onProduct}
              placeholder={t('quick.scanProduct')}
              aria-label={t('quick.scanProduct')}
              data-testid="quick-product"
            />
          </Form.Item>
          <Space align="start">
            <Form.Item label={t('field.quantity')}>
              <InputNumber
                ref={qtyRef}
                min={1}
                precision={0}
                value={quantity}
                onChange={(v) => setQuantity(typeof v === 'number' ? v : null)}
                onFocus={(e) => e.target.select()}
                onPressEnter={(e) => {
                  e.preventDefault();
                  locationRef.current?.focus();
                }}
                aria-label={t('field.quantity')}
                data-testid="quick-quantity"
                style={{ width: 140 }}
              />
            </Form.Item>
            {needsExpiry ? (
              <Form.Item label={t('field.expiry')} required>
                <DatePicker
                  value={expiry}
                  onChange={setExpiry}
                  aria-label={t('field.expiry')}
                  data-testid="quick-expiry"
                />
              </Form.Item>
            ) : null}
          </Space>
          <Form.Item label={t('quick.scanLocation')}>
            <ScanInput
              ref={locationRef}
              value={location}
              onChange={setLocation}
              onScan={submit}
              placeholder={t('quick.scanLocation')}
              aria-label={t('quick.scanLocation')}
              data-testid="quick-location"
            />
          </Form.Item>
          {problem ? (
            <Alert type="error" showIcon title={problem} data-testid="quick-error" style={{ marginBottom: 16 }} />
          ) : null}
          <Button
            type="primary"
            loading={quick.isPending}
            onClick={() => void submit(location.trim())}
            data-testid="quick-submit"
          >
            {t('quick.submit')}
          </Button>
        </Form>
        <Typography.Title level={5} style={{ marginTop: 24 }}>
          {t('quick.recent')}
        </Typography.Title>
        <Table<TInboundReceiptDetail>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={done}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('quick.none') }}
          columns={[
            { title: t('field.number'), dataIndex: 'number' },
            {
              title: t('field.product'),
              render: (_, r) => `${r.lines[0]?.product_number ?? ''} ${r.lines[0]?.product_name ?? ''}`,
            },
            { title: t('field.quantity'), dataIndex: 'total_good', align: 'right' },
            { title: t('field.location'), render: (_, r) => r.lines[0]?.location_code },
            { title: t('field.expiry'), render: (_, r) => r.lines[0]?.expiry_date ?? '—' },
            {
              title: '',
              render: (_, r) => (
                <Button size="small" href={`/entry-print/${r.id}`} target="_blank">
                  {t('list.print')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
    </FloorScreen>
  );
}
