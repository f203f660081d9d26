import { PrinterOutlined } from '@ant-design/icons';
import { shipManifestRoutes } from '@wms/contracts';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useRoute } from '../../../../shared/api/route-query';
import { formatDateTime } from '../../../../shared/format';
import { errorText } from '../../../../shared/forms/error-text';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { svgSrc } from '../../../outbound/components/labels';
import '../../../outbound/pages/deliver-print-pick/print.css';
import '../../i18n';

/**
 * /ships-manifest-print/{id}: a carrier's handover manifest on A4 (the pick lists' print layout): its number as a
 * barcode, every parcel, and a line for the driver's signature. Printed to paper or PDF by the browser.
 */
export default function ManifestPrintPage() {
  const { t } = useTranslation('warehouse');
  const { id = '' } = useParams();
  const data = useRoute(shipManifestRoutes.getManifest, { params: { id } });
  if (data.isLoading) return <PageLoading />;
  if (data.isError || !data.data) return <Result status="warning" title={errorText(data.error)} />;
  const m = data.data;
  return (
    <div className="print-sheet outbound-print paper-A4" data-testid="manifest-print">
      <div className="no-print outbound-print-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t('manifest.print')}
        </Button>
      </div>
      <header className="outbound-print-header">
        <div>
          <h1>{t('manifest.printTitle')}</h1>
          <div>
            {m.provider_name} · {m.warehouse_code} · {t('manifest.parcels')}: {m.parcel_count}
          </div>
          <div>
            {t('manifest.closedAt')}: {m.closed_at ? formatDateTime(m.closed_at) : '—'}
          </div>
        </div>
        <div className="number">
          <img className="barcode" src={svgSrc(m.barcode_svg)} alt={m.number} />
          <div>{m.number}</div>
        </div>
      </header>
      <table className="outbound-print-table">
        <thead>
          <tr>
            <th>#</th>
            <th>{t('manifest.order')}</th>
            <th>{t('manifest.tracking')}</th>
            <th>{t('manifest.recipient')}</th>
            <th>{t('manifest.scannedAt')}</th>
          </tr>
        </thead>
        <tbody>
          {m.parcels.map((p, i) => (
            <tr key={p.order_id} data-testid="manifest-row">
              <td>{i + 1}</td>
              <td className="strong">{p.platform_order_number ?? p.order_number}</td>
              <td>{p.consignment_number ?? ''}</td>
              <td>{p.recipient_name}</td>
              <td>{formatDateTime(p.scanned_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <footer className="outbound-print-footer">
        <span>
          {t('manifest.parcels')}: {m.parcel_count}
        </span>
        <span>{t('manifest.signature')}: ____________________</span>
      </footer>
    </div>
  );
}
