import { ReloadOutlined } from '@ant-design/icons';
import { catalogRoutes, outboundRoutes, type TPackItem, type TPackView } from '@wms/contracts';
import type { InputRef, RefSelectProps } from 'antd';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Input,
  InputNumber,
  Progress,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoute, useRouteMutation } from '../../../shared/api/route-query';
import { errorText } from '../../../shared/forms/error-text';
import { FloorScreen, ScanStep } from '../../../shared/handheld/handheld';
import { holdKeysWhile } from '../../../shared/ui/scan-buffer';
import { scanFeedback } from '../../../shared/ui/scan-feedback';
import { ScanInput } from '../../../shared/ui/scan-input';
import { lookupOrder, outboundAndStock, outboundReads, packReset, packScan, packView } from '../api';
import { CarrierLabelsButton } from './carrier-labels';
import { OrderStatusTag, useOrderLabels } from './labels';

type TCue = { kind: 'ok' | 'refused'; text: string } | null;

/**
 * The packing station, scanner-first: scan the order (or its consignment) barcode, then each item — a wrong item
 * or an extra unit is refused with a low buzz and a red flash —, the IMEI/serial of items that need one, choose the
 * packaging, confirm: the order ships (closed) and the station waits for the next order.
 */
export function PackingStation() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const packaging = useRoute(
    catalogRoutes.listPackagingMaterials,
    { query: { page_size: 100 } },
    { select: (d) => d.results },
  );
  const ship = useRouteMutation(outboundRoutes.shipOrder, { invalidates: outboundAndStock });
  const setConsignment = useRouteMutation(outboundRoutes.setConsignment, { invalidates: outboundReads });
  const [view, setView] = useState<TPackView | null>(null);
  const [cue, setCue] = useState<TCue>(null);
  const [orderCode, setOrderCode] = useState('');
  const [itemCode, setItemCode] = useState('');
  const [serial, setSerial] = useState('');
  const [pendingSerial, setPendingSerial] = useState<TPackItem | null>(null);
  const [pendingBarcode, setPendingBarcode] = useState('');
  const [consignment, setConsignmentText] = useState('');
  const [boxes, setBoxes] = useState<Array<{ key: number; id?: string; quantity: number }>>([{ key: 0, quantity: 1 }]);
  const orderRef = useRef<InputRef>(null);
  const itemRef = useRef<InputRef>(null);
  const serialRef = useRef<InputRef>(null);
  const consignmentRef = useRef<InputRef>(null);
  const packagingRef = useRef<RefSelectProps>(null);
  const shipRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!view) orderRef.current?.focus();
    else if (pendingSerial) serialRef.current?.focus();
    else if (!view.complete) itemRef.current?.focus();
    else consignmentRef.current?.focus();
  }, [view, pendingSerial]);

  /** The station's visual cue; the sound comes from the scan box (ScanInput) from what the handler answers. */
  const signal = (kind: 'ok' | 'refused', text: string) => {
    setCue({ kind, text });
    return kind === 'ok';
  };

  const openOrder = async (code: string) => {
    try {
      const order = await lookupOrder(code);
      if (order.status !== 'exported' && order.status !== 'online') {
        setOrderCode('');
        return signal('refused', t('pack.notPackable', { number: order.number, status: l.status(order.status) }));
      }
      const v = await packView(order.id);
      setView(v);
      setConsignmentText(v.order.consignment_number ?? '');
      setBoxes([{ key: 0, quantity: 1 }]);
      setOrderCode('');
      return signal('ok', t('pack.opened', { number: v.order.number }));
    } catch (err) {
      setOrderCode('');
      return signal('refused', errorText(err));
    }
  };

  const send = async (barcode: string, serialValue?: string): Promise<boolean> => {
    if (!view) return false;
    try {
      const next = await packScan(view.order.id, serialValue ? { barcode, serial: serialValue } : { barcode });
      setView(next);
      const item = next.items.find((i) => i.barcode === barcode || i.product_number === barcode);
      return signal('ok', item ? `${item.product_number} ${item.packed}/${item.expected}` : t('pack.ok'));
    } catch (err) {
      return signal('refused', errorText(err));
    }
  };

  const scanItem = async (code: string) => {
    setItemCode('');
    if (!view) return false;
    const item = view.items.find((i) => i.barcode === code || i.product_number === code);
    if (item?.requires_serial && item.packed < item.expected) {
      setPendingSerial(item);
      setPendingBarcode(code);
      setCue({ kind: 'ok', text: t('pack.serialFor', { product: item.product_number }) });
      return true;
    }
    return send(code);
  };

  const scanSerial = async (value: string) => {
    setSerial('');
    const barcode = pendingBarcode;
    setPendingSerial(null);
    // The serial box is a plain input (no camera): it gives the scan's cue itself.
    scanFeedback((await send(barcode, value)) ? 'ok' : 'error');
  };

  const confirm = async () => {
    if (!view) return;
    try {
      if (consignment.trim() && consignment.trim() !== view.order.consignment_number)
        await setConsignment.mutateAsync({
          params: { id: view.order.id },
          body: { consignment_number: consignment.trim() },
        });
      const used = boxes.filter((b): b is typeof b & { id: string } => !!b.id && b.quantity > 0);
      await ship.mutateAsync({
        params: { id: view.order.id },
        body: { packaging: used.map((b) => ({ packaging_material_id: b.id, quantity: b.quantity })) },
      });
      scanFeedback('ok');
      void message.success(t('pack.shipped', { number: view.order.number }));
      setCue({ kind: 'ok', text: t('pack.shipped', { number: view.order.number }) });
      setView(null);
    } catch (err) {
      scanFeedback('error');
      signal('refused', errorText(err));
    }
  };

  const reset = async () => {
    if (!view) return;
    try {
      setView(await packReset(view.order.id));
      setPendingSerial(null);
    } catch (err) {
      scanFeedback('error');
      signal('refused', errorText(err));
    }
  };

  const packed = view?.items.reduce((s, i) => s + i.packed, 0) ?? 0;
  const expected = view?.items.reduce((s, i) => s + i.expected, 0) ?? 0;
  // The next item to scan: the first one not yet fully packed.
  const nextItem = view?.items.find((i) => i.packed < i.expected);
  return (
    <FloorScreen>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="packing-station">
        <ScanStep
          step={
            !view
              ? t('pack.scanOrder')
              : pendingSerial
                ? t('pack.scanSerial', { product: pendingSerial.product_number })
                : view.complete
                  ? t('pack.confirmTitle')
                  : t('pack.scanItem')
          }
          progress={view ? t('common:handheld.packed', { packed, expected }) : undefined}
          target={
            !view
              ? undefined
              : pendingSerial
                ? pendingSerial.product_number
                : (nextItem?.product_number ?? view.order.number)
          }
          detail={
            !view
              ? undefined
              : nextItem && !pendingSerial
                ? `${nextItem.product_name} · ${nextItem.packed}/${nextItem.expected}`
                : view.order.number
          }
        />
        <Card
          size="small"
          data-testid="pack-cue"
          data-cue={cue?.kind ?? ''}
          style={{
            background: cue?.kind === 'refused' ? '#fff1f0' : cue?.kind === 'ok' ? '#f6ffed' : undefined,
            borderColor: cue?.kind === 'refused' ? '#ff4d4f' : cue?.kind === 'ok' ? '#52c41a' : undefined,
            transition: 'background 0.2s',
          }}
        >
          <Typography.Text strong type={cue?.kind === 'refused' ? 'danger' : undefined} data-testid="pack-cue-text">
            {cue?.text ?? t('pack.ready')}
          </Typography.Text>
        </Card>
        {!view ? (
          <ScanInput
            ref={orderRef}
            autoFocus
            value={orderCode}
            onChange={setOrderCode}
            onScan={openOrder}
            placeholder={t('pack.scanOrder')}
            aria-label={t('pack.scanOrder')}
            data-testid="pack-scan-order"
          />
        ) : (
          <Row gutter={16}>
            <Col xs={24} lg={14}>
              <Card
                size="small"
                className="card-head-wrap"
                title={
                  <Space wrap>
                    <span data-testid="pack-order-number">{view.order.number}</span>
                    <OrderStatusTag status={view.order.status} />
                    <span>{view.order.recipient_name}</span>
                  </Space>
                }
                extra={
                  <Space>
                    {/* The order's carrier label (Shopee's own for a Shopee-arranged channel): print or reprint it here. */}
                    {view.order.consignment_number ? <CarrierLabelsButton selected={[view.order.id]} /> : null}
                    <Button icon={<ReloadOutlined />} onClick={() => void reset()} data-testid="pack-reset">
                      {t('actions.reset')}
                    </Button>
                    <Button onClick={() => setView(null)}>{t('pack.nextOrder')}</Button>
                  </Space>
                }
              >
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {pendingSerial ? (
                    <Input
                      ref={serialRef}
                      value={serial}
                      onChange={(e) => setSerial(e.target.value)}
                      onPressEnter={(e) => {
                        e.preventDefault();
                        const v = (e.target as HTMLInputElement).value.trim();
                        if (v) holdKeysWhile(scanSerial(v));
                      }}
                      placeholder={t('pack.scanSerial', { product: pendingSerial.product_number })}
                      aria-label={t('pack.scanSerial', { product: pendingSerial.product_number })}
                      data-testid="pack-scan-serial"
                      autoComplete="off"
                    />
                  ) : (
                    <ScanInput
                      ref={itemRef}
                      value={itemCode}
                      onChange={setItemCode}
                      onScan={scanItem}
                      placeholder={t('pack.scanItem')}
                      aria-label={t('pack.scanItem')}
                      data-testid="pack-scan-item"
                      disabled={view.complete}
                    />
                  )}
                  <Progress
                    percent={expected ? Math.round((packed / expected) * 100) : 0}
                    format={() => `${packed}/${expected}`}
                  />
                  <Table<TPackItem>
                    size="small"
                    rowKey="product_id"
                    pagination={false}
                    dataSource={view.items}
                    data-testid="pack-items"
                    rowClassName={(i) => (i.packed === i.expected ? 'pack-done' : '')}
                    columns={[
                      { title: l.field('product'), dataIndex: 'product_number' },
                      { title: l.field('product_name'), dataIndex: 'product_name' },
                      { title: l.field('barcode'), dataIndex: 'barcode' },
                      {
                        title: t('pack.progress'),
                        key: 'progress',
                        render: (_, i) => (
                          <Tag
                            color={i.packed === i.expected ? 'green' : 'default'}
                            data-testid={`pack-progress-${i.product_number}`}
                          >
                            {i.packed}/{i.expected}
                          </Tag>
                        ),
                      },
                      {
                        title: l.field('serial'),
                        key: 'serials',
                        render: (_, i) => (i.requires_serial ? i.serials.join(', ') || t('pack.serialNeeded') : ''),
                      },
                    ]}
                  />
                </Space>
              </Card>
            </Col>
            <Col xs={24} lg={10}>
              <Card size="small" title={t('pack.confirmTitle')}>
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {view.complete ? (
                    <Alert type="success" showIcon title={t('pack.complete')} data-testid="pack-complete" />
                  ) : (
                    <Alert type="info" showIcon title={t('pack.remaining', { count: expected - packed })} />
                  )}
                  <Input
                    ref={consignmentRef}
                    value={consignment}
                    onChange={(e) => setConsignmentText(e.target.value)}
                    onPressEnter={(e) => {
                      // The tracking number's scan ships the order when nothing else is asked (the order is complete
                      // and there is no packaging to choose, or it is chosen already): no second key at a scanner-only
                      // station. Otherwise the packaging is chosen next.
                      e.preventDefault();
                      const askPackaging = (packaging.data ?? []).length > 0 && !boxes.some((b) => b.id);
                      if (askPackaging) packagingRef.current?.focus();
                      else if (view.complete && consignment.trim() && !ship.isPending) void confirm();
                      else shipRef.current?.focus();
                    }}
                    onFocus={(e) => e.target.select()}
                    placeholder={l.field('consignment_number')}
                    aria-label={l.field('consignment_number')}
                    data-testid="pack-consignment"
                  />
                  {boxes.map((b, i) => (
                    <Space key={b.key} wrap>
                      <Select
                        ref={i === 0 ? packagingRef : undefined}
                        allowClear
                        style={{ width: 220 }}
                        placeholder={t('pack.packaging')}
                        value={b.id}
                        onChange={(id) => {
                          setBoxes((all) => all.map((x, j) => (j === i ? { ...x, id } : x)));
                          if (id && view.complete) shipRef.current?.focus();
                        }}
                        options={(packaging.data ?? []).map((p) => ({
                          value: p.id,
                          label: `${p.code} ${p.name} (${p.quantity})`,
                        }))}
                        data-testid={`pack-packaging-${i}`}
                      />
                      <InputNumber
                        min={1}
                        max={1000}
                        precision={0}
                        value={b.quantity}
                        onChange={(q) =>
                          setBoxes((all) => all.map((x, j) => (j === i ? { ...x, quantity: q ?? 1 } : x)))
                        }
                        aria-label={l.field('quantity')}
                      />
                    </Space>
                  ))}
                  <Button
                    size="small"
                    onClick={() =>
                      setBoxes((all) => [...all, { key: all.length ? all[all.length - 1]!.key + 1 : 0, quantity: 1 }])
                    }
                  >
                    {t('pack.addPackaging')}
                  </Button>
                  <Button
                    ref={shipRef}
                    type="primary"
                    block
                    disabled={!view.complete}
                    loading={ship.isPending}
                    onClick={() => void confirm()}
                    data-testid="pack-ship"
                  >
                    {t('pack.ship')}
                  </Button>
                </Space>
              </Card>
            </Col>
          </Row>
        )}
      </Space>
    </FloorScreen>
  );
}
