import { PrinterOutlined } from '@ant-design/icons';
import { PRINT_ORDER_BY, type TPrintOrder, type TPrintOrderBy } from '@wms/contracts';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { usePrintData } from '../../api';
import { svgSrc, useOrderLabels } from '../../components/labels';
import '../../i18n';
import '../deliver-print-pick/print.css';

/**
 * Delivery documents (`/deliver-print-doc/{id}/{orderby}`) and receipts (`/deliver-print-rec/{id}/{orderby}`): one
 * sheet per order of a batch, an order or a selection, ordered by order number, pick location or product, with the
 * order and consignment numbers as barcodes. The receipt adds prices, amounts and a signature line.
 */
export function OrderDocumentsPage(props: { kind: 'doc' | 'rec' }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { id = '', orderby = 'number' } = useParams();
  const [params] = useSearchParams();
  const by: TPrintOrderBy = (PRINT_ORDER_BY as readonly string[]).includes(orderby)
    ? (orderby as TPrintOrderBy)
    : 'number';
  const ids = id === 'selection' ? (params.get('ids') ?? '') : undefined;
  const data = usePrintData(id, by, ids);
  if (data.isLoading) return <PageLoading />;
  if (data.isError || !data.data)
    return <Result status="warning" title={errorText(data.error)} data-testid="order-print-error" />;
  const d = data.data;
  const code = (v: string | null) =>
    v && d.barcodes[v] ? (
      <div className="number">
        <img className="barcode" src={svgSrc(d.barcodes[v])} alt={v} />
        <div>{v}</div>
      </div>
    ) : null;
  const sheet = (o: TPrintOrder, index: number) => (
    <div className="print-sheet outbound-print" key={o.id} data-testid="order-sheet">
      {index === 0 ? (
        <div className="no-print outbound-print-toolbar">
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
            {t('print.print')}
          </Button>
        </div>
      ) : null}
      <header className="outbound-print-header">
        <div>
          <div className="company">{d.company.name}</div>
          <h1>{t(props.kind === 'doc' ? 'print.docTitle' : 'print.recTitle')}</h1>
          <div>
            {l.field('created_at')}: {formatDateTime(o.created_at)}
          </div>
        </div>
        <div className="outbound-print-barcodes">
          {code(o.number)}
          {code(o.consignment_number)}
        </div>
      </header>
      <table className="outbound-print-fields">
        <tbody>
          <tr>
            <th>{l.field('recipient_name')}</th>
            <td>{o.recipient_name}</td>
            <th>{l.field('recipient_phone')}</th>
            <td>{[o.recipient_phone, o.recipient_mobile].filter(Boolean).join(' / ')}</td>
          </tr>
          <tr>
            <th>{l.field('recipient_address')}</th>
            <td colSpan={3}>
              {o.recipient_postcode} {o.recipient_address}
            </td>
          </tr>
          <tr>
            <th>{l.field('sender_name')}</th>
            <td>{o.sender_name}</td>
            <th>{l.field('sender_phone')}</th>
            <td>{o.sender_phone}</td>
          </tr>
          <tr>
            <th>{l.field('platform_order_number')}</th>
            <td>{o.platform_order_number ?? ''}</td>
            <th>{l.field('logistics_provider')}</th>
            <td>{o.logistics_provider_name ?? ''}</td>
          </tr>
          <tr>
            <th>{l.field('arrival_date')}</th>
            <td>
              {o.arrival_date ?? ''} {l.slot(o.arrival_time_slot)}
            </td>
            <th>{l.field('piece_count')}</th>
            <td>{o.piece_count}</td>
          </tr>
          {o.shipping_remark ? (
            <tr>
              <th>{l.field('shipping_remark')}</th>
              <td colSpan={3}>{o.shipping_remark}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <table className="outbound-print-table">
        <thead>
          <tr>
            <th>#</th>
            <th>{l.field('product')}</th>
            <th>{l.field('product_name')}</th>
            <th className="num">{l.field('quantity')}</th>
            {props.kind === 'rec' ? (
              <>
                <th className="num">{l.field('unit_price')}</th>
                <th className="num">{t('print.amount')}</th>
              </>
            ) : (
              <th>{t('print.location')}</th>
            )}
          </tr>
        </thead>
        <tbody>
          {o.lines.map((line) => (
            <tr key={line.id}>
              <td>{line.line_no}</td>
              <td>{line.product_number}</td>
              <td>{line.product_name}</td>
              <td className="num strong">{line.quantity}</td>
              {props.kind === 'rec' ? (
                <>
                  <td className="num">{line.unit_price ?? ''}</td>
                  <td className="num">
                    {line.unit_price ? (Number(line.unit_price) * line.quantity).toLocaleString() : ''}
                  </td>
                </>
              ) : (
                <td>
                  {/* Reservations are per product (a kit's are its components'): shown once, on its first line. */}
                  {o.lines.find((x) => x.product_id === line.product_id)?.id === line.id
                    ? o.allocations
                        .filter((a) => a.product_id === line.product_id)
                        .map((a) => `${a.location_code}×${a.quantity}`)
                        .join(' ')
                    : ''}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {props.kind === 'rec' ? (
        <table className="outbound-print-fields" style={{ marginTop: '3mm' }}>
          <tbody>
            <tr>
              <th>{l.field('total_amount')}</th>
              <td>{o.total_amount ?? ''}</td>
              <th>{l.field('cod_amount')}</th>
              <td>{o.cod ? (o.cod_amount ?? '') : t('values.no')}</td>
            </tr>
          </tbody>
        </table>
      ) : null}
      <footer className="outbound-print-footer">
        <span>
          {t('print.printedAt')}: {formatDateTime(d.printed_at)}
        </span>
        <span>
          {props.kind === 'rec' ? `${t('print.signature')}: ____________` : `${t('print.packer')}: ____________`}
        </span>
      </footer>
    </div>
  );
  return <div data-testid={`order-${props.kind}s`}>{d.orders.map(sheet)}</div>;
}

export default function DeliveryDocumentsPage() {
  return <OrderDocumentsPage kind="doc" />;
}
