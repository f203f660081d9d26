import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { decodePrintData } from '../../api';
import { LabelPrintView } from '../../components/label-print-view';
import '../../i18n';

/** /product-print-preview/{data}: the A4 product label sheet chosen on /product-print (data = the request). */
export default function ProductPrintPreviewPage() {
  const { t } = useTranslation('labels');
  const { data = '' } = useParams();
  const request = decodePrintData(data);
  if (!request) return <Alert type="error" showIcon title={t('invalidLink')} style={{ margin: 16 }} />;
  return <LabelPrintView request={{ ...request, kind: 'product' }} />;
}
