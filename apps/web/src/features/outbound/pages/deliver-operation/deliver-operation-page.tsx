import { UploadOutlined } from '@ant-design/icons';
import { outboundRoutes, type TImportRowError, type TOrder } from '@wms/contracts';
import type { InputRef } from 'antd';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Space,
  Typography,
  Upload,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { FloorScreen, ScanStep } from '../../../../shared/handheld/handheld';
import { RowErrorsTable, rowErrorsOf } from '../../../../shared/jobs/row-errors-table';
import { ScanInput } from '../../../../shared/ui/scan-input';
import { fileToBase64 } from '../../../../shared/upload';
import { outboundReads } from '../../api';
import { CarrierConsignmentsButton } from '../../components/carrier-consignments';
import { CarrierLabelsButton } from '../../components/carrier-labels';
import { CvsOverdueAlert } from '../../components/cvs-overdue';
import { useOrderLabels } from '../../components/labels';
import { OrderTable } from '../../components/order-table';
import '../../i18n';

/** Scan an order barcode, then its consignment barcode: saved at once, the next order is expected. */
function ScanPanel() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const save = useRouteMutation(outboundRoutes.setConsignments, { invalidates: outboundReads });
  const [order, setOrder] = useState<string | null>(null);
  const [orderText, setOrderText] = useState('');
  const [consignmentText, setConsignmentText] = useState('');
  const [date, setDate] = useState<Dayjs | null>(dayjs());
  const [pieces, setPieces] = useState<number | null>(null);
  const [cue, setCue] = useState<{ ok: boolean; text: string } | null>(null);
  const orderRef = useRef<InputRef>(null);
  const consignmentRef = useRef<InputRef>(null);

  const saveOne = async (consignment: string) => {
    if (!order) return false;
    let ok = false;
    try {
      await save.mutateAsync({
        body: {
          items: [
            {
              order,
              consignment_number: consignment,
              ...(date ? { shipping_date: date.format('YYYY-MM-DD') } : {}),
              ...(pieces ? { piece_count: pieces } : {}),
            },
          ],
        },
      });
      setCue({ ok: true, text: t('operation.saved', { order, consignment }) });
      ok = true;
    } catch (err) {
      const rows = rowErrorsOf(err);
      setCue({ ok: false, text: rows.length ? rows.map((r) => r.message).join(' / ') : errorText(err) });
    }
    setOrder(null);
    setOrderText('');
    setConsignmentText('');
    return ok;
  };

  // The consignment box is enabled by the order scan: focus moves once it is (and back when it is done).
  useEffect(() => {
    (order ? consignmentRef : orderRef).current?.focus();
  }, [order]);

  return (
    <FloorScreen>
      <Card size="small" title={t('operation.scanTitle')}>
        <ScanStep
          step={order ? t('operation.scanConsignment') : t('operation.scanOrder')}
          progress={t('common:handheld.step', { n: order ? 2 : 1, total: 2 })}
          target={order ?? undefined}
        />
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <DatePicker
              value={date}
              onChange={setDate}
              aria-label={l.field('shipping_date')}
              placeholder={l.field('shipping_date')}
            />
            <InputNumber
              min={1}
              max={99}
              precision={0}
              value={pieces}
              onChange={setPieces}
              placeholder={l.field('piece_count')}
              aria-label={l.field('piece_count')}
            />
          </Space>
          <ScanInput
            ref={orderRef}
            autoFocus
            value={orderText}
            onChange={setOrderText}
            onScan={setOrder}
            placeholder={t('operation.scanOrder')}
            aria-label={t('operation.scanOrder')}
            data-testid="op-scan-order"
          />
          <ScanInput
            ref={consignmentRef}
            value={consignmentText}
            onChange={setConsignmentText}
            onScan={saveOne}
            placeholder={order ? t('operation.scanConsignmentFor', { order }) : t('operation.scanConsignment')}
            aria-label={t('operation.scanConsignment')}
            data-testid="op-scan-consignment"
            disabled={!order}
          />
          {cue ? (
            <Alert
              type={cue.ok ? 'success' : 'error'}
              showIcon
              title={cue.text}
              data-testid="op-cue"
              data-ok={String(cue.ok)}
            />
          ) : null}
        </Space>
      </Card>
    </FloorScreen>
  );
}

/** Many pairs at once, typed or pasted: one `order, consignment[, date, pieces]` per line. */
function BulkPanel() {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const save = useRouteMutation(outboundRoutes.setConsignments, { invalidates: outboundReads });
  const upload = useRouteMutation(outboundRoutes.uploadConsignments, { invalidates: outboundReads });
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<TImportRowError[]>([]);
  const [error, setError] = useState<string | null>(null);

  const done = (n: number) => {
    void message.success(t('operation.updated', { count: n }));
    setErrors([]);
    setError(null);
  };
  const fail = (err: unknown) => {
    const rows = rowErrorsOf(err);
    setErrors(rows);
    setError(rows.length ? t('operation.rejected', { count: rows.length }) : errorText(err));
  };

  const submit = async () => {
    const items = text
      .split(/\r?\n/)
      .map((line) => line.split(/[,\t]/).map((s) => s.trim()))
      .filter((p) => p.some(Boolean))
      .map(([order = '', consignment_number = '', date, pieces]) => ({
        order,
        consignment_number,
        ...(date ? { shipping_date: date.replaceAll('/', '-') } : {}),
        ...(pieces ? { piece_count: Number(pieces) } : {}),
      }));
    if (!items.length) return;
    try {
      done((await save.mutateAsync({ body: { items } })).updated);
      setText('');
    } catch (err) {
      fail(err);
    }
  };

  return (
    <Card size="small" title={t('operation.bulkTitle')}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('operation.bulkHint')}</Typography.Text>
        <Input.TextArea rows={5} value={text} onChange={(e) => setText(e.target.value)} data-testid="op-bulk-text" />
        <Space wrap>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="op-bulk-save">
            {t('common:actions.save')}
          </Button>
          <Upload
            accept=".xlsx,.csv"
            showUploadList={false}
            beforeUpload={(file) => {
              void fileToBase64(file)
                .then((b64) => upload.mutateAsync({ body: { file_base64: b64 } }))
                .then((r) => done(r.updated))
                .catch(fail);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={upload.isPending}>
              {t('operation.upload')}
            </Button>
          </Upload>
        </Space>
        {error ? <Alert type="error" showIcon title={error} /> : null}
        <RowErrorsTable errors={errors} fieldLabel={l.field} />
      </Space>
    </Card>
  );
}

function EditModal(props: { order: TOrder | null; onClose: () => void }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const save = useRouteMutation(outboundRoutes.setConsignment, { invalidates: outboundReads });
  const [form] = Form.useForm<{ consignment_number: string; shipping_date: Dayjs | null; piece_count: number }>();
  const o = props.order;
  return (
    <Modal
      open={!!o}
      title={o?.number}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      {o ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            consignment_number: o.consignment_number ?? '',
            shipping_date: o.shipping_date ? dayjs(o.shipping_date) : null,
            piece_count: o.piece_count,
          }}
          onFinish={async (v) => {
            try {
              await save.mutateAsync({
                params: { id: o.id },
                body: {
                  consignment_number: v.consignment_number.trim() || null,
                  shipping_date: v.shipping_date ? v.shipping_date.format('YYYY-MM-DD') : null,
                  piece_count: v.piece_count,
                },
              });
              void message.success(t('common:messages.saved'));
              props.onClose();
            } catch (err) {
              form.setFields([{ name: 'consignment_number', errors: [errorText(err)] }]);
            }
          }}
        >
          <Form.Item name="consignment_number" label={l.field('consignment_number')}>
            <Input autoFocus data-testid="op-edit-consignment" />
          </Form.Item>
          <Form.Item name="shipping_date" label={l.field('shipping_date')}>
            <DatePicker />
          </Form.Item>
          <Form.Item name="piece_count" label={l.field('piece_count')}>
            <InputNumber min={1} max={99} precision={0} />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}

/** /deliver-operation: consignment numbers, shipping date and piece count — scanned, typed, pasted or uploaded. */
export default function DeliverOperationPage() {
  const { t } = useTranslation(['outbound', 'common']);
  const [editing, setEditing] = useState<TOrder | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <CvsOverdueAlert />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <ScanPanel />
        </Col>
        <Col xs={24} lg={12}>
          <BulkPanel />
        </Col>
      </Row>
      <Card size="small" title={t('operation.orders')}>
        <OrderTable
          selected={selected}
          onSelect={(ids) => setSelected(ids)}
          toolbar={
            <Space>
              <CarrierConsignmentsButton selected={selected} onDone={() => setSelected([])} />
              <CarrierLabelsButton selected={selected} />
            </Space>
          }
          columns={[
            'number',
            'platform_order_number',
            'status',
            'recipient_name',
            'logistics_provider',
            'consignment_number',
            'shipping_date',
            'piece_count',
          ]}
          extra={[
            {
              key: 'edit',
              title: t('list.actions'),
              render: (_, o) =>
                ['pending_export', 'exported', 'online', 'cancel_export'].includes(o.status) ? (
                  <Button type="link" size="small" onClick={() => setEditing(o)}>
                    {t('actions.edit')}
                  </Button>
                ) : null,
            },
          ]}
        />
      </Card>
      <EditModal order={editing} onClose={() => setEditing(null)} />
    </Space>
  );
}
