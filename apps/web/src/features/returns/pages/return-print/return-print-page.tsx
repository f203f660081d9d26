import { PrinterOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { useReturnPrint } from '../../api';
import '../../i18n';
import './return-print.css';

/** The server's barcode SVG as an image source (an image cannot run script, unlike inserted markup). */
function svgSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * /return-print/{id}: a return receipt (or, with `?kind=supplier`, a return-to-supplier order) on A4, with the
 * document number and every product as a barcode. Labels come from the server in the user's language.
 */
export default function ReturnPrintPage() {
  const { t } = useTranslation(['returns', 'common']);
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const kind = params.get('kind') === 'supplier' ? 'supplier_return' : 'return';
  const doc = useReturnPrint(id, kind);
  if (doc.isLoading) return <PageLoading />;
  if (doc.isError || !doc.data)
    return <Result status="warning" title={errorText(doc.error)} data-testid="return-print-error" />;
  const d = doc.data;
  const received = d.kind === 'return';
  return (
    <div className="print-sheet return-print" data-testid="return-print">
      <div className="no-print return-print-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t('print.print')}
        </Button>
      </div>
      <header className="return-print-header">
        <div>
          <div className="return-print-company">{d.company_name}</div>
          <h1>{d.title}</h1>
          <div>
            {t('fields.warehouse')}: {d.warehouse_code} {d.warehouse_name} · {d.status_label}
          </div>
        </div>
        <div className="return-print-number">
          <img className="barcode" src={svgSrc(d.number_barcode_svg)} alt={d.number} />
          <div>{d.number}</div>
        </div>
      </header>
      <table className="return-print-fields">
        <tbody>
          {d.fields.map((f) => (
            <tr key={f.label}>
              <th>{f.label}</th>
              <td>{f.value || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="return-print-lines">
        <thead>
          <tr>
            <th>#</th>
            <th>{t('fields.product')}</th>
            <th>{t('print.barcode')}</th>
            <th>{t('fields.expiryDate')}</th>
            <th>{t('fields.storageLocation')}</th>
            <th>{t('fields.quantity')}</th>
            {received ? (
              <>
                <th>{t('fields.acceptedQuantity')}</th>
                <th>{t('fields.goodQuantity')}</th>
                <th>{t('fields.defectiveQuantity')}</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {d.lines.map((l) => (
            <tr key={l.line_no}>
              <td>{l.line_no}</td>
              <td>
                <div>{l.product_number}</div>
                <div>{l.product_name}</div>
              </td>
              <td className="barcode-cell">
                {l.barcode_svg ? (
                  <img className="barcode" src={svgSrc(l.barcode_svg)} alt={l.barcode ?? l.product_number} />
                ) : null}
              </td>
              <td>{l.expiry_date ?? ''}</td>
              <td>{l.location_code ?? ''}</td>
              <td className="num">{l.quantity}</td>
              {received ? (
                <>
                  <td className="num">{l.accepted_quantity ?? ''}</td>
                  <td className="num">{l.good_quantity ?? ''}</td>
                  <td className="num">{l.defective_quantity ?? ''}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      <footer className="return-print-footer">
        <span>
          {t('print.printedAt')}: {formatDateTime(d.printed_at)}
        </span>
        <span>{t('print.signature')}: ____________________</span>
      </footer>
    </div>
  );
}
