import { PrinterOutlined } from '@ant-design/icons';
import { carrierRoutes } from '@wms/contracts';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiCall, sendRoute } from '../../../shared/api/client';
import { downloadBytes } from '../../../shared/excel/use-excel-export';
import { errorText } from '../../../shared/forms/error-text';
import { postForm } from '../../../shared/forms/post-form';

/**
 * "Print carrier labels" for the selected orders (/deliver-opser, /deliver-operation, a collection batch): first the
 * server signs ECPay's print forms for the orders whose label is at ECPay (ECPay's label is an HTML page the browser
 * posts for); then the REST of the orders go to the PDF route, which merges the labels the carriers made (T-cat) into
 * one PDF opened in a new tab (downloaded when the browser blocks the tab). The ECPay forms are offered in a
 * notification with an "Open ECPay labels" button per ECPay provider (a fresh click opens ECPay's page in a new tab).
 * Orders without a label are named in a warning, never silently left out.
 */
export function usePrintCarrierLabels(): (orderIds: string[]) => Promise<void> {
  const { t } = useTranslation(['outbound']);
  const { message, notification } = App.useApp();
  return async (orderIds) => {
    try {
      const ids = orderIds.slice(0, 500);
      const { forms, others } = await apiCall(carrierRoutes.ecpayLabelForms, { body: { order_ids: ids } });
      if (forms.length) {
        const key = `ecpay-labels-${Date.now()}`;
        const count = forms.reduce((n, f) => n + f.orders.length, 0);
        notification.info({
          key,
          duration: 0,
          title: t('carrier.ecpayTitle'),
          description: t('carrier.ecpayReady', { count }),
          actions: (
            <Space wrap data-testid="ecpay-labels">
              {forms.map((f) => (
                <Button
                  key={`${f.provider.id}-${f.kind}-${f.orders[0]?.id}`}
                  type="primary"
                  size="small"
                  icon={<PrinterOutlined />}
                  data-testid="ecpay-labels-open"
                  onClick={() => postForm(f, '_blank')}
                >
                  {f.kind !== 'HOME_B2C'
                    ? t('carrier.ecpayOpenC2C', { chain: t(`cvs.subtype.${f.kind}`), number: f.orders[0]?.number })
                    : forms.length > 1
                      ? t('carrier.ecpayOpenProvider', { provider: f.provider.name, count: f.orders.length })
                      : t('carrier.ecpayOpen')}
                </Button>
              ))}
            </Space>
          ),
        });
      }
      if (!others.length) return;
      let res: Response;
      try {
        res = await sendRoute(
          carrierRoutes.printLabels,
          { body: { order_ids: others.map((o) => o.id) } },
          { accept: 'application/pdf' },
        );
      } catch (err) {
        // Some labels are at ECPay and the rest have none: name those, the ECPay ones are offered above.
        if (forms.length && err instanceof ApiError && err.code === 'LABEL_NOT_AVAILABLE') {
          void message.warning(
            t('carrier.labelsNone', { count: others.length, orders: others.map((o) => o.number).join('、') }),
          );
          return;
        }
        throw err;
      }
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
