import { inboundRoutes, type TInboundReceipt, type TInboundReceiptDetail } from '@wms/contracts';
import { Alert, App, Button, Card, Descriptions, type InputRef, Popconfirm, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { screenTitle } from '../../../../routes/screen-title';
import { apiCall } from '../../../../shared/api/client';
import { useRoute, useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen, ScanStep } from '../../../../shared/handheld/handheld';
import { ReceivingLines, type TReceivedLine } from '../../../../shared/receiving/receiving-lines';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { inboundAndStock } from '../../api';
import { StatusTag } from '../../components/status-tag';
import '../../i18n';

/**
 * /entry-confirm, scanner-first: scan the receipt's number (or its QR label), then receive its lines (shared
 * ReceivingLines: accepted, defective, the location scanned for the good units; Enter moves on).
 */
export default function EntryConfirmPage() {
  const { t } = useTranslation(['inbound', 'nav', 'common']);
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const confirm = useRouteMutation(inboundRoutes.confirmReceipt, { invalidates: inboundAndStock });
  const cancel = useRouteMutation(inboundRoutes.cancelConfirmation, { invalidates: inboundAndStock });
  const [scan, setScan] = useState('');
  const [receipt, setReceipt] = useState<TInboundReceiptDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const receiptRef = useRef<InputRef>(null);
  const waiting = useRoute(inboundRoutes.listReceipts, {
    query: { status: 'pending', page_size: 25, ordering: 'planned_date' },
  });
  const lines = useMemo(
    () => (receipt?.lines ?? []).map((l) => ({ ...l, has_shelf_life: l.shelf_life_months !== null })),
    [receipt],
  );

  const load = (r: TInboundReceiptDetail) => {
    setReceipt(r);
    setProblem(null);
  };

  const openId = (id: string) =>
    apiCall(inboundRoutes.getReceipt, { params: { id } })
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
      const found = await apiCall(inboundRoutes.listReceipts, { query: { search: code, page_size: 10 } });
      const hit = found.results.find((r) => r.number === code) ?? (found.count === 1 ? found.results[0] : undefined);
      if (!hit) {
        setReceipt(null);
        setProblem(t('confirm.notFound', { code }));
        return false;
      }
      setParams({ id: hit.id }, { replace: true });
      load(await apiCall(inboundRoutes.getReceipt, { params: { id: hit.id } }));
      return true;
    } catch (err) {
      setProblem(errorText(err));
      return false;
    }
  };

  const submit = async (received: TReceivedLine[]) => {
    if (!receipt) return;
    setProblem(null);
    try {
      const done = await confirm.mutateAsync({ params: { id: receipt.id }, body: { lines: received } });
      void message.success(t('confirm.done', { number: done.number }));
      load(done);
      void waiting.refetch();
      setScan('');
      receiptRef.current?.focus();
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  return (
    <FloorScreen>
      <Card title={screenTitle('/entry-confirm')}>
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <ScanStep
            step={receipt?.actions.includes('confirm') ? t('confirm.receiveLines') : t('confirm.scanReceipt')}
            progress={t('common:handheld.step', { n: receipt?.actions.includes('confirm') ? 2 : 1, total: 2 })}
            target={receipt?.number}
            detail={receipt ? `${receipt.warehouse_code} ${receipt.warehouse_name}` : undefined}
          />
          <ScanInput
            ref={receiptRef}
            autoFocus
            value={scan}
            onChange={setScan}
            onScan={onScanReceipt}
            placeholder={t('confirm.scanReceipt')}
            aria-label={t('confirm.scanReceipt')}
            data-testid="confirm-receipt-scan"
          />
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
              <ReceivingLines
                warehouseId={receipt.warehouse_id}
                lines={lines}
                editable={receipt.actions.includes('confirm')}
                quantityTitle={t('field.planned')}
                submitLabel={t('confirm.submit')}
                submitting={confirm.isPending}
                onSubmit={(received) => void submit(received)}
                onProblem={setProblem}
                actions={
                  <>
                    {receipt.actions.includes('cancel') ? (
                      <Popconfirm
                        title={t('list.cancelAsk', { number: receipt.number })}
                        onConfirm={() =>
                          cancel
                            .mutateAsync({ params: { id: receipt.id } })
                            .then((r) => {
                              void message.success(t('list.cancelled'));
                              load(r);
                            })
                            .catch((err) => setProblem(errorText(err)))
                        }
                      >
                        <Button danger>{t('list.cancelConfirmation')}</Button>
                      </Popconfirm>
                    ) : null}
                    <Button href={`/entry-print/${receipt.id}`} target="_blank">
                      {t('list.print')}
                    </Button>
                  </>
                }
              />
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
            scroll={{ x: 'max-content' }}
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
    </FloorScreen>
  );
}
