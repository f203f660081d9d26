import { PrinterOutlined } from '@ant-design/icons';
import { carrierRoutes } from '@wms/contracts';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendRoute } from '../../../shared/api/client';
import { downloadBytes } from '../../../shared/excel/use-excel-export';
import { errorText } from '../../../shared/forms/error-text';

/**
 * "Print carrier labels" for the selected orders (/deliver-opser, /deliver-operation): the server merges the labels
 * the carriers made (T-cat) into one PDF, opened in a new tab to print (downloaded when the browser blocks the tab);
 * orders without a label are named in a warning, never silently left out.
 */
/**
 * A function that fetches the merged label PDF of some orders and opens it (downloads it when the browser blocks the
 * tab), telling the user how many labels came and which orders have none.
 */
export function usePrintCarrierLabels(): (orderIds: string[]) => Promise<void> {
  const { t } = useTranslation(['outbound']);
  const { message } = App.useApp();
  return async (orderIds) => {
    try {
      const res = await sendRoute(
        carrierRoutes.printLabels,
        { body: { order_ids: orderIds.slice(0, 500) } },
        { accept: 'application/pdf' },
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      const pages = Number(res.headers.get('x-labels-pages') ?? 0);
      const missing = decodeURIComponent(res.headers.get('x-labels-missing-orders') ?? '')
        .split(',')
        .filter(Boolean);
      const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/pdf' }));
      const tab = window.open(url, '_blank');
      if (!tab) downloadBytes(bytes, 'labels.pdf', 'application/pdf');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      if (missing.length)
        void message.warning(t('carrier.labelsMissing', { pages, count: missing.length, orders: missing.join('、') }));
      else void message.success(t('carrier.labelsReady', { pages }));
    } catch (err) {
      void message.error(errorText(err));
    }
  };
}

export function CarrierLabelsButton(props: { selected: string[]; type?: 'default' | 'primary' }) {
  const { t } = useTranslation(['outbound']);
  const print = usePrintCarrierLabels();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    await print(props.selected);
    setBusy(false);
  };

  return (
    <Button
      type={props.type}
      icon={<PrinterOutlined />}
      disabled={!props.selected.length}
      loading={busy}
      onClick={() => void run()}
      title={t('carrier.labelsHint')}
      data-testid="carrier-labels"
    >
      {props.selected.length ? t('carrier.labelsCount', { count: props.selected.length }) : t('carrier.labels')}
    </Button>
  );
}
