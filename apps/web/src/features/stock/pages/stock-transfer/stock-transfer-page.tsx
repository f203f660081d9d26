import type { TBalanceRow, TProduct } from '@wms/contracts';
import { Alert, App, Button, Card, Form, Input, InputNumber, type InputRef, Radio, Space, Typography } from 'antd';
import { type ComponentRef, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { screenTitle } from '../../../../routes/screen-title';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen, ScanStep } from '../../../../shared/handheld/handheld';
import { lookupLocations, lookupProduct } from '../../../../shared/pickers/api';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { fetchPiles, useTransfer } from '../../api';
import { LotStateTag } from '../../components/stock-tags';
import '../../i18n';

const pileLabel = (p: TBalanceRow) => `${p.location_code}${p.expiry_date ? ` · ${p.expiry_date}` : ''}`;

/**
 * /stock-transfer, scanner-first: scan the product, scan the location it leaves (or pick the pile), type the
 * quantity, scan the destination — Enter moves on at every step and the last Enter transfers.
 */
export default function StockTransferPage() {
  const { t } = useTranslation(['stock', 'nav', 'common']);
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const transfer = useTransfer();
  const [warehouseId, setWarehouseId] = useState<string | undefined>(params.get('warehouse') ?? undefined);
  const [productCode, setProductCode] = useState('');
  const [product, setProduct] = useState<Pick<TProduct, 'id' | 'number' | 'name'> | null>(null);
  const [piles, setPiles] = useState<TBalanceRow[]>([]);
  const [pileId, setPileId] = useState<string>();
  const [fromCode, setFromCode] = useState('');
  const [quantity, setQuantity] = useState<number | null>(null);
  const [toCode, setToCode] = useState('');
  const [remark, setRemark] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const productRef = useRef<InputRef>(null);
  const fromRef = useRef<InputRef>(null);
  const qtyRef = useRef<ComponentRef<typeof InputNumber>>(null);
  const toRef = useRef<InputRef>(null);
  const pile = piles.find((p) => p.balance_id === pileId);
  const overFree = !!pile && quantity !== null && quantity > pile.free;

  const loadPiles = async (productId: string, wanted?: string) => {
    const res = await fetchPiles({ product_id: productId, warehouse_id: warehouseId });
    const movable = res.results.filter((p) => p.free > 0);
    setPiles(movable);
    setPileId(wanted && movable.some((p) => p.balance_id === wanted) ? wanted : undefined);
    return movable;
  };

  // Arriving from /product-location with a chosen pile.
  useEffect(() => {
    const balance = params.get('balance');
    const productId = params.get('product');
    if (!balance || !productId) return;
    void fetchPiles({ product_id: productId }).then((res) => {
      const chosen = res.results.find((p) => p.balance_id === balance);
      if (!chosen) return;
      setProduct({ id: chosen.product_id, number: chosen.product_number, name: chosen.product_name });
      setProductCode(chosen.product_number);
      setPiles(res.results.filter((p) => p.free > 0 && p.warehouse_id === chosen.warehouse_id));
      setPileId(balance);
      setFromCode(chosen.location_code);
      setTimeout(() => qtyRef.current?.focus(), 0);
    });
  }, [params]);

  const reset = () => {
    setProduct(null);
    setProductCode('');
    setPiles([]);
    setPileId(undefined);
    setFromCode('');
    setQuantity(null);
    setToCode('');
    setProblem(null);
    productRef.current?.focus();
  };

  const onProduct = async (code: string) => {
    setProblem(null);
    try {
      const p = await lookupProduct(code);
      setProduct(p);
      const movable = await loadPiles(p.id);
      if (movable.length === 0) {
        setProblem(t('transfer.noPiles'));
        return false;
      }
      if (movable.length === 1) {
        setPileId(movable[0]!.balance_id);
        setFromCode(movable[0]!.location_code);
        qtyRef.current?.focus();
      } else fromRef.current?.focus();
      return true;
    } catch (err) {
      setProduct(null);
      setPiles([]);
      setProblem(errorText(err));
      return false;
    }
  };

  const onFrom = (code: string) => {
    const here = piles.filter((p) => p.location_code === code);
    if (here.length === 0) {
      setProblem(t('transfer.notHere', { code }));
      return false;
    }
    setProblem(null);
    setPileId(here[0]!.balance_id);
    qtyRef.current?.focus();
    return true;
  };

  const submit = async (destination: string) => {
    setProblem(null);
    /** The scan is refused: the reason is shown, the error tone plays (ScanInput). */
    const refuse = (text: string) => {
      setProblem(text);
      return false;
    };
    if (!pile) return refuse(t('transfer.pickPile'));
    if (!quantity) {
      qtyRef.current?.focus();
      return refuse(t('transfer.quantityFirst'));
    }
    if (quantity > pile.free) {
      qtyRef.current?.focus();
      return refuse(t('transfer.overFree', { quantity, count: pile.free }));
    }
    try {
      const found = await lookupLocations(destination, pile.warehouse_id);
      if (found.length === 0) return refuse(t('transfer.locationNotFound', { code: destination }));
      const res = await transfer.mutateAsync({
        balance_id: pile.balance_id,
        to_location_id: found[0]!.id,
        quantity,
        remark: remark || undefined,
      });
      void message.success(t('transfer.done', { number: res.number, units: res.unit_count }));
      reset();
      return true;
    } catch (err) {
      return refuse(errorText(err));
    }
  };

  return (
    <FloorScreen>
      <Card title={screenTitle('/stock-transfer')} style={{ maxWidth: 760 }}>
        <ScanStep
          step={!product ? t('transfer.scanProduct') : !pile ? t('transfer.scanFrom') : t('transfer.scanTo')}
          progress={t('common:handheld.step', { n: !product ? 1 : !pile ? 2 : 3, total: 3 })}
          target={!product ? undefined : !pile ? product.number : `${pile.location_code} → ?`}
          detail={
            !product
              ? undefined
              : !pile
                ? product.name
                : `${product.number} × ${quantity ?? '?'} (${t('transfer.free', { count: pile.free })})`
          }
        />
        <Form layout="vertical" onSubmitCapture={(e) => e.preventDefault()}>
          <Form.Item label={t('filter.warehouse')}>
            <WarehouseSelect
              value={warehouseId}
              onChange={setWarehouseId}
              autoPick
              aria-label={t('filter.warehouse')}
            />
          </Form.Item>
          <Form.Item label={t('transfer.scanProduct')}>
            <ScanInput
              ref={productRef}
              autoFocus
              value={productCode}
              onChange={setProductCode}
              onScan={onProduct}
              placeholder={t('transfer.scanProduct')}
              aria-label={t('transfer.scanProduct')}
              data-testid="transfer-product"
            />
            {product ? (
              <Typography.Text type="secondary" data-testid="transfer-product-name">
                {product.number} {product.name}
              </Typography.Text>
            ) : null}
          </Form.Item>
          <Form.Item label={t('transfer.scanFrom')}>
            <ScanInput
              ref={fromRef}
              value={fromCode}
              onChange={setFromCode}
              onScan={onFrom}
              placeholder={t('transfer.scanFrom')}
              aria-label={t('transfer.scanFrom')}
              data-testid="transfer-from"
            />
          </Form.Item>
          {piles.length > 0 ? (
            <Form.Item label={t('transfer.pickPile')}>
              <Radio.Group
                value={pileId}
                onChange={(e) => {
                  setPileId(e.target.value as string);
                  setFromCode(piles.find((p) => p.balance_id === e.target.value)?.location_code ?? '');
                  qtyRef.current?.focus();
                }}
              >
                <Space orientation="vertical">
                  {piles.map((p) => (
                    <Radio key={p.balance_id} value={p.balance_id} data-testid="transfer-pile">
                      {pileLabel(p)} · {t('transfer.free', { count: p.free })} <LotStateTag state={p.state} />
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
          ) : null}
          <Form.Item
            label={t('col.quantity')}
            // A typed quantity above the lot's free units is said, not silently lowered to them.
            validateStatus={overFree ? 'error' : undefined}
            help={overFree ? t('transfer.overFree', { quantity, count: pile?.free }) : undefined}
          >
            <InputNumber
              ref={qtyRef}
              min={1}
              precision={0}
              value={quantity}
              onChange={(v) => setQuantity(typeof v === 'number' ? v : null)}
              onPressEnter={(e) => {
                e.preventDefault();
                if (!overFree) toRef.current?.focus();
              }}
              aria-label={t('col.quantity')}
              data-testid="transfer-quantity"
              style={{ width: 160 }}
            />
          </Form.Item>
          <Form.Item label={t('transfer.scanTo')}>
            <ScanInput
              ref={toRef}
              value={toCode}
              onChange={setToCode}
              onScan={submit}
              placeholder={t('transfer.scanTo')}
              aria-label={t('transfer.scanTo')}
              data-testid="transfer-to"
            />
          </Form.Item>
          <Form.Item label={t('col.remark')}>
            <Input
              value={remark}
              onChange={(e) => setRemark(e.target.value)}
              maxLength={500}
              aria-label={t('col.remark')}
            />
          </Form.Item>
          {problem ? (
            <Alert type="error" showIcon title={problem} data-testid="transfer-error" style={{ marginBottom: 16 }} />
          ) : null}
          <Space>
            <Button
              type="primary"
              loading={transfer.isPending}
              onClick={() => void submit(toCode.trim())}
              data-testid="transfer-submit"
            >
              {t('transfer.submit')}
            </Button>
            <Button onClick={reset}>{t('common:actions.reset')}</Button>
          </Space>
        </Form>
      </Card>
    </FloorScreen>
  );
}
