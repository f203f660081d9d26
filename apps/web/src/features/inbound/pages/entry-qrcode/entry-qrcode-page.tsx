import { PrinterOutlined } from '@ant-design/icons';
import { inboundRoutes } from '@wms/contracts';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useRoute } from '../../../../shared/api/route-query';
import { PageLoading } from '../../../../shared/ui/page-loading';
import '../../i18n';
import '../entry-print/print.css';

/** /entry-qrcode/{id}: a 100 × 100 mm dock label; its QR code is the receipt number, which /entry-confirm scans. */
export default function EntryQrcodePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('inbound');
  const label = useRoute(inboundRoutes.receiptQrLabel, { params: { id } });
  if (!label.data) return <PageLoading />;
  const l = label.data;
  return (
    <div className="print-sheet inbound-qr" data-testid="entry-qrcode">
      <img src={l.qr_data_url} alt={l.qr_text} />
      <div className="qr-number">{l.number}</div>
      <div>
        {t('field.warehouse')} {l.warehouse_code} · {t('field.plannedDate')} {l.planned_date}
      </div>
      <div>{t('qr.summary', { lines: l.line_count, units: l.total_quantity })}</div>
      <Button className="no-print" icon={<PrinterOutlined />} onClick={() => window.print()} style={{ marginTop: 8 }}>
        {t('print.print')}
      </Button>
    </div>
  );
}
