import { PrinterOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { usePrintData } from '../../api';
import { svgSrc, useOrderLabels } from '../../components/labels';
import '../../i18n';
import './print.css';

/**
 * A pick list: what to take from where, summed over the batch's (or selection's) orders, in walking order
 * (location pick sequence, then code). `/deliver-print-pick/{id}` is A5, `/deliver-print-pick-A4/{id}` A4.
 */
export function PickListPage(props: { paper: 'A4' | 'A5' }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const ids = id === 'selection' ? (params.get('ids') ?? '') : undefined;
  const data = usePrintData(id, 'location', ids);
  // The print layout sizes the page from ?paper=; the A5 screen asks for it when the link did not.
  useEffect(() => {
    if (props.paper === 'A5' && params.get('paper') !== 'A5') {
      const next = new URLSearchParams(params);
      next.set('paper', 'A5');
      setParams(next, { replace: true });
    }
  }, [props.paper, params, setParams]);
  if (data.isLoading) return <PageLoading />;
  if (data.isError || !data.data)
    return <Result status="warning" title={errorText(data.error)} data-testid="pick-list-error" />;
  const d = data.data;
  const code = d.batch?.number;
  return (
    <div className={`print-sheet outbound-print paper-${props.paper}`} data-testid="pick-list">
      <div className="no-print outbound-print-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t('print.print')}
        </Button>
      </div>
      <header className="outbound-print-header">
        <div>
          <div className="company">{d.company.name}</div>
          <h1>{t('print.pickTitle')}</h1>
          <div>
            {t('print.orders', { count: d.orders.length })} · {t('print.units', { count: d.total_units })}
          </div>
        </div>
        {code ? (
          <div className="number">
            <img className="barcode" src={svgSrc(d.barcodes[code]!)} alt={code} />
            <div>{code}</div>
          </div>
        ) : null}
      </header>
      <table className="outbound-print-table">
        <thead>
          <tr>
            <th>#</th>
            <th>{t('print.location')}</th>
            <th>{l.field('product')}</th>
            <th>{l.field('product_name')}</th>
            <th>{l.field('expiry_date')}</th>
            <th className="num">{l.field('quantity')}</th>
            <th className="num">{t('print.orderCount')}</th>
            <th>{t('print.check')}</th>
          </tr>
        </thead>
        <tbody>
          {d.pick_rows.map((r, i) => (
            <tr key={`${r.location_id}-${r.product_id}-${r.expiry_date}`} data-testid="pick-row">
              <td>{i + 1}</td>
              <td className="strong">{r.location_code ?? t('print.noLocation')}</td>
              <td>{r.product_number}</td>
              <td>{r.product_name}</td>
              <td>{r.expiry_date ?? ''}</td>
              <td className="num strong">{r.quantity}</td>
              <td className="num">{r.order_count}</td>
              <td className="check" />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={5}>{t('print.total')}</td>
            <td className="num strong">{d.total_units}</td>
            <td colSpan={2} />
          </tr>
        </tfoot>
      </table>
      <div className="outbound-print-orders">
        {d.orders.map((o) => (
          <span key={o.id}>
            {o.number}
            {o.consignment_number ? ` / ${o.consignment_number}` : ''}
          </span>
        ))}
      </div>
      <footer className="outbound-print-footer">
        <span>
          {t('print.printedAt')}: {formatDateTime(d.printed_at)}
        </span>
        <span>{t('print.picker')}: ____________</span>
      </footer>
    </div>
  );
}

export default function PickListA5Page() {
  return <PickListPage paper="A5" />;
}
