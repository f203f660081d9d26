import { useQuery } from '@tanstack/react-query';
import type { TInboundReceipt, TInboundReceiptDetail } from '@wms/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  InputNumber,
  type InputRef,
  Popconfirm,
  Space,
  Table,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { type ComponentRef, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { screenTitle } from '../../../../routes/screen-title';
import { errorText } from '../../../../shared/forms/error-text';
import { lookupLocations } from '../../../../shared/pickers/api';
import { LocationSelect } from '../../../../shared/pickers/location-select';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { fetchReceipt, fetchReceipts, inboundKeys, useCancelConfirmation, useConfirmReceipt } from '../../api';
import { StatusTag } from '../../components/status-tag';
import '../../i18n';

interface TLineInput {
  accepted: number | null;
  defective: number | null;
  expiry: string | null;
  locationCode: string;
  locationId?: string;
  defectiveLocationId?: string;
}

type TNumRef = ComponentRef<typeof InputNumber>;

/**
 * /entry-confirm, scanner-first: scan the receipt's number (or its QR label), then per line the accepted and
 * defective quantities and the location scanned for the good units; Enter moves on. Good = accepted − defective.
 */
export default function EntryConfirmPage() {
  const { t } = useTranslation(['inbound', 'nav', 'common']);
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const confirm = useConfirmReceipt();
  const cancel = useCancelConfirmation();
  const [scan, setScan] = useState('');
  const [receipt, setReceipt] = useState<TInboundReceiptDetail | null>(null);
  const [inputs, setInputs] = useState<Record<string, TLineInput>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [allCode, setAllCode] = useState('');
  const receiptRef = useRef<InputRef>(null);
  const acceptedRefs = useRef<Record<string, TNumRef | null>>({});
  const defectiveRefs = useRef<Record<string, TNumRef | null>>({});
  const locationRefs = useRef<Record<string, InputRef | null>>({});
  const confirmRef = useRef<HTMLButtonElement>(null);
  const waiting = useQuery({
    queryKey: [...inboundKeys.receipts, 'waiting'],
    queryFn: () => fetchReceipts({ status: 'pending', page_size: 25, ordering: 'planned_date' }),
  });

  const load = (r: TInboundReceiptDetail) => {
    setReceipt(r);
    setProblem(null);
    setInputs(
      Object.fromEntries(
        r.lines.map((l) => [
          l.id,
          {
            accepted: l.accepted_quantity ?? l.quantity,
            defective: l.defective_quantity ?? 0,
            expiry: l.expiry_date,
            locationCode: l.location_code ?? '',
            locationId: l.location_id ?? undefined,
            defectiveLocationId: l.defective_location_id ?? undefined,
          },
        ]),
      ),
    );
    if (r.status !== 'confirmed') setTimeout(() => acceptedRefs.current[r.lines[0]?.id ?? '']?.focus(), 0);
  };

  const openId = (id: string) =>
    fetchReceipt(id)
      .then((r) => {
        setScan(r.number);
        load(r);
      })
      .catch((err) => setProblem(errorText(err)));

  // biome-ignore lint/correctness/useExhaustiveDependencies: only once, on arrival with ?id=
  useEffect(() => {
    const id = params.get('id');
    if (id) void openId(id);
  }, []);

  const onScanReceipt = async (code: string) => {
    setProblem(null);
    try {
      const found = await fetchReceipts({ search: code, page_size: 10 });
      const hit = found.results.find((r) => r.number === code) ?? (found.count === 1 ? found.results[0] : undefined);
      if (!hit) {
        setReceipt(null);
        return setProblem(t('confirm.notFound', { code }));
      }
      setParams({ id: hit.id }, { replace: true });
      load(await fetchReceipt(hit.id));
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  const set = (id: string, patch: Partial<TLineInput>) => setInputs((s) => ({ ...s, [id]: { ...s[id]!, ...patch } }));

  const resolveLocation = async (lineId: string, code: string) => {
    if (!receipt) return false;
    const found = (await lookupLocations(code, receipt.warehouse_id)).filter((l) => l.kind === 'sellable');
    if (found.length === 0) {
      setProblem(t('confirm.locationNotFound', { code }));
      return false;
    }
    setProblem(null);
    set(lineId, { locationCode: found[0]!.code, locationId: found[0]!.id });
    return true;
  };

  const nextAfter = (lineId: string) => {
    const lines = receipt?.lines ?? [];
    const i = lines.findIndex((l) => l.id === lineId);
    const next = lines[i + 1];
    if (next) acceptedRefs.current[next.id]?.focus();
    else confirmRef.current?.focus();
  };

  const applyToAll = async (code: string) => {
    if (!receipt) return;
    const found = (await lookupLocations(code, receipt.warehouse_id)).filter((l) => l.kind === 'sellable');
    if (found.length === 0) return setProblem(t('confirm.locationNotFound', { code }));
    setProblem(null);
    setInputs((s) =>
      Object.fromEntries(
        Object.entries(s).map(([id, v]) => [
          id,
          v.locationId ? v : { ...v, locationId: found[0]!.id, locationCode: found[0]!.code },
        ]),
      ),
    );
    confirmRef.current?.focus();
  };

  const submit = async () => {
    if (!receipt) return;
    setProblem(null);
    try {
      const done = await confirm.mutateAsync({
        id: receipt.id,
        body: {
          lines: receipt.lines.map((l) => {
            const v = inputs[l.id]!;
            return {
              line_id: l.id,
              accepted_quantity: v.accepted ?? Number.NaN,
              defective_quantity: v.defective ?? 0,
              location_id: v.locationId ?? null,
              defective_location_id: v.defectiveLocationId ?? null,
              ...(l.shelf_life_months !== null ? { expiry_date: v.expiry } : {}),
            };
          }),
        },
      });
      void message.success(t('confirm.done', { number: done.number }));
      load(done);
      void waiting.refetch();
      setScan('');
      receiptRef.current?.focus();
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  const editable = receipt && receipt.status !== 'confirmed';
  return (
    <Card title={screenTitle('/entry-confirm')}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap>
          <ScanInput
            ref={receiptRef}
            autoFocus
            value={scan}
            onChange={setScan}
            onScan={(c) => void onScanReceipt(c)}
            placeholder={t('confirm.scanReceipt')}
            aria-label={t('confirm.scanReceipt')}
            data-testid="confirm-receipt-scan"
          />
          {editable ? (
            <ScanInput
              value={allCode}
              onChange={setAllCode}
              onScan={(c) => void applyToAll(c)}
              placeholder={t('confirm.scanAll')}
              aria-label={t('confirm.scanAll')}
              data-testid="confirm-all-location"
            />
          ) : null}
        </Space>
        {problem ? <Alert type="error" showIcon title={problem} data-testid="confirm-error" /> : null}
        {receipt ? (
          <>
            <Descriptions size="small" bordered column={{ xs: 1, md: 3 }}>
              <Descriptions.Item label={t('field.number')}>{receipt.number}</Descriptions.Item>
              <Descriptions.Item label={t('field.status')}>
                <StatusTag status={receipt.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('field.warehouse')}>
                {receipt.warehouse_code} {receipt.warehouse_name}
              </Descriptions.Item>
              <Descriptions.Item label={t('field.category')}>{t(`category.${receipt.category}`)}</Descriptions.Item>
              <Descriptions.Item label={t('field.plannedDate')}>{receipt.planned_date}</Descriptions.Item>
              <Descriptions.Item label={t('field.remark')}>{receipt.remark}</Descriptions.Item>
            </Descriptions>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={receipt.lines}
              scroll={{ x: 'max-content' }}
              columns={[
                { title: '#', dataIndex: 'line_no' },
                {
                  title: t('field.product'),
                  render: (_, l) => (
                    <>
                      <div>{l.product_number}</div>
                      <Typography.Text type="secondary">{l.product_name}</Typography.Text>
                    </>
                  ),
                },
                { title: t('field.planned'), dataIndex: 'quantity', align: 'right' },
                {
                  title: t('field.expiry'),
                  render: (_, l) =>
                    l.shelf_life_months === null ? (
                      '—'
                    ) : editable ? (
                      <DatePicker
                        value={inputs[l.id]?.expiry ? dayjs(inputs[l.id]!.expiry) : null}
                        onChange={(d) => set(l.id, { expiry: d ? d.format('YYYY-MM-DD') : null })}
                        aria-label={t('field.expiry')}
                      />
                    ) : (
                      l.expiry_date
                    ),
                },
                {
                  title: t('field.accepted'),
                  render: (_, l) =>
                    editable ? (
                      <InputNumber
                        ref={(el) => {
                          acceptedRefs.current[l.id] = el;
                        }}
                        value={inputs[l.id]?.accepted}
                        onChange={(v) => set(l.id, { accepted: typeof v === 'number' ? v : null })}
                        onPressEnter={() => defectiveRefs.current[l.id]?.focus()}
                        onFocus={(e) => e.target.select()}
                        aria-label={t('field.accepted')}
                        data-testid="confirm-accepted"
                        style={{ width: 96 }}
                      />
                    ) : (
                      l.accepted_quantity
                    ),
                },
                {
                  title: t('field.defective'),
                  render: (_, l) =>
                    editable ? (
                      <InputNumber
                        ref={(el) => {
                          defectiveRefs.current[l.id] = el;
                        }}
                        value={inputs[l.id]?.defective}
                        onChange={(v) => set(l.id, { defective: typeof v === 'number' ? v : null })}
                        onPressEnter={() => locationRefs.current[l.id]?.focus()}
                        onFocus={(e) => e.target.select()}
                        aria-label={t('field.defective')}
                        data-testid="confirm-defective"
                        style={{ width: 96 }}
                      />
                    ) : (
                      l.defective_quantity
                    ),
                },
                {
                  title: t('field.good'),
                  align: 'right',
                  render: (_, l) => {
                    const v = inputs[l.id];
                    if (!editable) return l.good_quantity;
                    const good = (v?.accepted ?? 0) - (v?.defective ?? 0);
                    return <span data-testid="confirm-good">{good}</span>;
                  },
                },
                {
                  title: t('field.difference'),
                  align: 'right',
                  render: (_, l) => {
                    const diff = editable ? (inputs[l.id]?.accepted ?? 0) - l.quantity : (l.difference ?? 0);
                    return diff === 0 ? (
                      '0'
                    ) : (
                      <Typography.Text type="warning">{diff > 0 ? `+${diff}` : diff}</Typography.Text>
                    );
                  },
                },
                {
                  title: t('field.location'),
                  render: (_, l) =>
                    editable ? (
                      <ScanInput
                        ref={(el) => {
                          locationRefs.current[l.id] = el;
                        }}
                        value={inputs[l.id]?.locationCode ?? ''}
                        onChange={(v) => set(l.id, { locationCode: v, locationId: undefined })}
                        onScan={(c) =>
                          void resolveLocation(l.id, c).then((ok) => {
                            if (ok) nextAfter(l.id);
                          })
                        }
                        placeholder={t('confirm.scanLocation')}
                        aria-label={t('field.location')}
                        data-testid="confirm-location"
                      />
                    ) : (
                      l.location_code
                    ),
                },
                {
                  title: t('field.defectiveLocation'),
                  render: (_, l) =>
                    editable ? (
                      (inputs[l.id]?.defective ?? 0) > 0 ? (
                        <LocationSelect
                          warehouseId={receipt.warehouse_id}
                          kind="defective"
                          value={inputs[l.id]?.defectiveLocationId}
                          onChange={(id) => set(l.id, { defectiveLocationId: id })}
                          aria-label={t('field.defectiveLocation')}
                        />
                      ) : (
                        '—'
                      )
                    ) : (
                      l.defective_location_code
                    ),
                },
              ]}
            />
            <Space>
              {editable ? (
                <Button
                  ref={confirmRef}
                  type="primary"
                  loading={confirm.isPending}
                  onClick={() => void submit()}
                  data-testid="confirm-submit"
                >
                  {t('confirm.submit')}
                </Button>
              ) : (
                <Popconfirm
                  title={t('list.cancelAsk', { number: receipt.number })}
                  onConfirm={() =>
                    cancel
                      .mutateAsync(receipt.id)
                      .then((r) => {
                        void message.success(t('list.cancelled'));
                        load(r);
                      })
                      .catch((err) => setProblem(errorText(err)))
                  }
                >
                  <Button danger>{t('list.cancelConfirmation')}</Button>
                </Popconfirm>
              )}
              <Button href={`/entry-print/${receipt.id}`} target="_blank">
                {t('list.print')}
              </Button>
            </Space>
          </>
        ) : null}
        <Typography.Title level={5} style={{ marginBottom: 0 }}>
          {t('confirm.waiting')}
        </Typography.Title>
        <Table<TInboundReceipt>
          rowKey="id"
          size="small"
          loading={waiting.isFetching}
          dataSource={waiting.data?.results ?? []}
          pagination={false}
          locale={{ emptyText: t('confirm.noneWaiting') }}
          columns={[
            { title: t('field.number'), dataIndex: 'number' },
            { title: t('field.warehouse'), dataIndex: 'warehouse_code' },
            { title: t('field.plannedDate'), dataIndex: 'planned_date' },
            { title: t('field.lines'), dataIndex: 'line_count', align: 'right' },
            { title: t('field.quantity'), dataIndex: 'total_quantity', align: 'right' },
            {
              title: '',
              render: (_, r) => (
                <Button size="small" onClick={() => void openId(r.id)} data-testid="confirm-open">
                  {t('list.confirm')}
                </Button>
              ),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
