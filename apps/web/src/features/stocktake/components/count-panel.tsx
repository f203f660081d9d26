import { DeleteOutlined } from '@ant-design/icons';
import { stocktakeRoutes, type TStocktakeDetail, type TStocktakeScannedLocation } from '@wms/contracts';
import { Alert, App, Button, Card, DatePicker, InputNumber, type InputRef, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../shared/api/route-query';
import { errorText } from '../../../shared/forms/error-text';
import { FloorScreen, ScanStep } from '../../../shared/handheld/handheld';
import { ScanInput } from '../../../shared/ui/scan-input';
import { scanLocation, scanProduct, stocktakeReads } from '../api';

interface TItem {
  key: string;
  product_id: string;
  label: string;
  expiry_date: string | null;
  quantity: number;
}

/**
 * Scanner-first counting: scan a location (its scan time is the moment the book is compared at), then scan products
 * (each scan adds the quantity, 1 by default; shelf-life products need their expiry date), then submit. What was
 * not scanned at the location counts as not found. Counting a location again in the round replaces its count.
 */
export function CountPanel({ sheet }: { sheet: TStocktakeDetail }) {
  const { t } = useTranslation(['stocktake', 'common']);
  const { message } = App.useApp();
  const submit = useRouteMutation(stocktakeRoutes.submitStocktakeCount, { invalidates: stocktakeReads });
  const [location, setLocation] = useState<TStocktakeScannedLocation | null>(null);
  const [locationCode, setLocationCode] = useState('');
  const [productCode, setProductCode] = useState('');
  const [quantity, setQuantity] = useState<number>(1);
  const [expiry, setExpiry] = useState<Dayjs | null>(null);
  const [items, setItems] = useState<TItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const locationInput = useRef<InputRef>(null);
  const productInput = useRef<InputRef>(null);

  // The product box exists only once a location is scanned: focus follows the location when it is committed.
  useEffect(() => {
    (location ? productInput : locationInput).current?.focus();
  }, [location]);

  const reset = () => {
    setLocation(null);
    setItems([]);
    setLocationCode('');
    setProductCode('');
    setQuantity(1);
    setExpiry(null);
  };

  const onLocation = async (code: string) => {
    setError(null);
    try {
      const found = await scanLocation(sheet.id, code);
      setLocation(found);
      setItems([]);
      if (!found.in_round) {
        setError(t('count.notInRound', { code: found.location_code }));
        return false;
      }
      return true;
    } catch (err) {
      setError(errorText(err));
      setLocationCode('');
      return false;
    }
  };

  const onProduct = async (code: string) => {
    if (!location) return false;
    setError(null);
    try {
      const p = await scanProduct(sheet.id, code);
      if (p.has_shelf_life && !expiry) {
        setError(t('count.needExpiry', { product: p.product_number }));
        return false;
      }
      const expiryDate = p.has_shelf_life && expiry ? expiry.format('YYYY-MM-DD') : null;
      const key = `${p.product_id}|${expiryDate ?? ''}`;
      setItems((list) => {
        const existing = list.find((i) => i.key === key);
        if (existing) return list.map((i) => (i.key === key ? { ...i, quantity: i.quantity + quantity } : i));
        return [
          ...list,
          {
            key,
            product_id: p.product_id,
            label: `${p.product_number} ${p.product_name}`,
            expiry_date: expiryDate,
            quantity,
          },
        ];
      });
      setProductCode('');
      setQuantity(1);
      productInput.current?.focus();
      return true;
    } catch (err) {
      setError(errorText(err));
      setProductCode('');
      return false;
    }
  };

  const onSubmit = async () => {
    if (!location) return;
    setError(null);
    try {
      const res = await submit.mutateAsync({
        params: { id: sheet.id },
        body: {
          location_id: location.location_id,
          started_at: location.scanned_at,
          items: items.map((i) => ({ product_id: i.product_id, expiry_date: i.expiry_date, quantity: i.quantity })),
        },
      });
      void message.success(
        t('count.saved', { code: location.location_code, lines: res.lines_counted, units: res.units_counted }),
      );
      reset();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <FloorScreen>
      <Card title={t('count.title', { round: sheet.round ?? '' })} data-testid="count-panel">
        <ScanStep
          step={location ? t('count.scanProduct') : t('count.scanLocation')}
          progress={t('common:handheld.step', { n: location ? 2 : 1, total: 2 })}
          target={location?.location_code}
          detail={
            location ? t('common:handheld.counted', { count: items.reduce((s, i) => s + i.quantity, 0) }) : undefined
          }
        />
        {error ? (
          <Alert type="warning" showIcon title={error} style={{ marginBottom: 12 }} data-testid="count-error" />
        ) : null}
        <Space wrap style={{ marginBottom: 12 }}>
          <ScanInput
            ref={locationInput}
            placeholder={t('count.scanLocation')}
            aria-label={t('count.scanLocation')}
            value={locationCode}
            onChange={setLocationCode}
            onScan={onLocation}
            disabled={!!location}
            style={{ width: 260 }}
            data-testid="count-location"
          />
          {location ? (
            <Button onClick={reset} data-testid="count-change-location">
              {t('count.changeLocation')}
            </Button>
          ) : null}
        </Space>
        {location ? (
          <>
            <p data-testid="count-location-info">
              <Tag color="blue">{location.location_code}</Tag> {location.location_name}{' '}
              {location.counted_at ? <Tag color="orange">{t('count.recount')}</Tag> : null}
            </p>
            {location.expected.length ? (
              <p>
                {t('count.expected')}:{' '}
                {location.expected
                  .map((e) => `${e.product_number}${e.expiry_date ? ` (${e.expiry_date})` : ''}`)
                  .join(', ')}
              </p>
            ) : null}
            <Space wrap style={{ marginBottom: 12 }}>
              <ScanInput
                ref={productInput}
                placeholder={t('count.scanProduct')}
                aria-label={t('count.scanProduct')}
                value={productCode}
                onChange={setProductCode}
                onScan={onProduct}
                // Counting: the camera stays open and every label read adds to the count.
                cameraContinuous
                style={{ width: 260 }}
                data-testid="count-product"
              />
              <InputNumber
                min={1}
                precision={0}
                value={quantity}
                onChange={(v) => setQuantity(Number(v ?? 1))}
                aria-label={t('count.quantity')}
                data-testid="count-quantity"
              />
              <DatePicker value={expiry} onChange={setExpiry} placeholder={t('count.expiry')} />
            </Space>
            <Table<TItem>
              size="small"
              rowKey="key"
              pagination={false}
              dataSource={items}
              locale={{ emptyText: t('count.nothingYet') }}
              columns={[
                { title: t('fields.product'), dataIndex: 'label' },
                { title: t('fields.expiryDate'), dataIndex: 'expiry_date', render: (d: string | null) => d ?? '—' },
                {
                  title: t('count.quantity'),
                  render: (_, i) => (
                    <InputNumber
                      min={0}
                      precision={0}
                      value={i.quantity}
                      onChange={(v) =>
                        setItems((list) => list.map((x) => (x.key === i.key ? { ...x, quantity: Number(v ?? 0) } : x)))
                      }
                      aria-label={`${t('count.quantity')} ${i.label}`}
                    />
                  ),
                },
                {
                  key: 'remove',
                  render: (_, i) => (
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('count.remove')}
                      onClick={() => setItems((list) => list.filter((x) => x.key !== i.key))}
                    />
                  ),
                },
              ]}
            />
            <Space style={{ marginTop: 12 }}>
              <Button
                type="primary"
                loading={submit.isPending}
                onClick={() => void onSubmit()}
                data-testid="count-submit"
              >
                {items.length ? t('count.submit') : t('count.submitEmpty')}
              </Button>
            </Space>
          </>
        ) : (
          <p>{t('count.start')}</p>
        )}
      </Card>
    </FloorScreen>
  );
}
