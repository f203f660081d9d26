import { ArrowLeftOutlined, DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  labelDocumentCss,
  labelDocumentHtml,
  labelDocumentZpl,
  SYMBOLOGIES,
  type TLabelFormat,
  type TLabelRequest,
} from '@wms/contracts';
import { Alert, Button, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useProfile } from '../../../shared/auth/session';
import { downloadBytes } from '../../../shared/excel/use-excel-export';
import { errorText } from '../../../shared/forms/error-text';
import { WarehouseSelect } from '../../../shared/pickers/warehouse-select';
import { PageLoading } from '../../../shared/ui/page-loading';
import { useLabelDocument, useLabelSheets, useSendToPrinter } from '../api';
import '../i18n';

/** Sheet options grouped by cell count (spec §9: 45, 60 or 88 cells; other known sheets too). */
export function useSheetOptions() {
  const { t } = useTranslation('labels');
  const sheets = useLabelSheets();
  return {
    sheets: sheets.data?.results ?? [],
    options: (sheets.data?.results ?? []).map((s) => ({
      value: s.id,
      label: `${t('cells', { count: s.cells })} · ${s.name}`,
    })),
  };
}

/** The roll a thermal printer takes for each kind of label (product labels are the small ones). */
const THERMAL_ROLL: Record<TLabelRequest['kind'], string> = {
  product: 'thermal-50x30',
  location: 'thermal-60x40',
  packaging: 'thermal-60x40',
};

/** The sheet a print screen starts with for a user's default label format. */
export function defaultSheet<T extends { code: string; cells: number }>(
  sheets: T[],
  format: TLabelFormat,
  kind: TLabelRequest['kind'],
): T | undefined {
  if (format === 'thermal') {
    const roll = sheets.find((s) => s.code === THERMAL_ROLL[kind]) ?? sheets.find((s) => s.code.startsWith('thermal-'));
    if (roll) return roll;
  }
  return sheets.find((s) => s.cells === 45) ?? sheets[0];
}

/**
 * A print screen: a toolbar (sheet, name, barcode type, start cell; hidden when printing) over the A4 label pages
 * exactly as they print. The markup comes from the contracts (`labelDocumentHtml`), the same the PDF test decodes.
 */
export function LabelPrintView(props: { request: Omit<TLabelRequest, 'sheet_id'> & { sheet_id?: string } }) {
  const { t } = useTranslation(['labels', 'common']);
  const navigate = useNavigate();
  const { sheets, options } = useSheetOptions();
  const [sheetId, setSheetId] = useState(props.request.sheet_id);
  const [showName, setShowName] = useState(props.request.show_name ?? true);
  const [symbology, setSymbology] = useState(props.request.symbology ?? 'auto');
  const [startCell, setStartCell] = useState(props.request.start_cell ?? 1);
  const [outline, setOutline] = useState(false);
  const labelFormat = useProfile()?.label_format ?? 'sheet';
  // The user's default format (profile): the A4 sheet of 45, or the thermal roll that fits the kind of label.
  useEffect(() => {
    if (!sheetId && sheets.length) setSheetId(defaultSheet(sheets, labelFormat, props.request.kind)!.id);
  }, [sheetId, sheets, labelFormat, props.request.kind]);
  const request: TLabelRequest | null = sheetId
    ? { ...props.request, sheet_id: sheetId, show_name: showName, symbology, start_cell: startCell }
    : null;
  const doc = useLabelDocument(request);
  const send = useSendToPrinter();
  const [warehouseId, setWarehouseId] = useState<string>();
  const sendToPrinter = () => {
    if (request && warehouseId) send.mutate({ ...request, warehouse_id: warehouseId });
  };
  return (
    <>
      <div className="no-print" style={{ padding: '0 16px 16px', display: 'flex', justifyContent: 'center' }}>
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
            {t('labels:back')}
          </Button>
          <Select
            style={{ minWidth: 320 }}
            value={sheetId}
            onChange={setSheetId}
            options={options}
            aria-label={t('labels:sheet')}
            data-testid="label-sheet"
          />
          <Space>
            <Typography.Text>{t('labels:showName')}</Typography.Text>
            <Switch checked={showName} onChange={setShowName} aria-label={t('labels:showName')} />
          </Space>
          <Select
            style={{ minWidth: 200 }}
            value={symbology}
            onChange={setSymbology}
            aria-label={t('labels:symbologyLabel')}
            options={SYMBOLOGIES.map((s) => ({ value: s, label: t(`labels:symbology.${s}`) }))}
          />
          <Space>
            <Typography.Text>{t('labels:startCell')}</Typography.Text>
            <InputNumber min={1} max={200} precision={0} value={startCell} onChange={(v) => setStartCell(v ?? 1)} />
          </Space>
          <Space>
            <Typography.Text>{t('labels:outline')}</Typography.Text>
            <Switch checked={outline} onChange={setOutline} aria-label={t('labels:outline')} />
          </Space>
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} disabled={!doc.data}>
            {t('labels:print')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            disabled={!doc.data}
            title={t('labels:zplHint')}
            onClick={() =>
              doc.data &&
              downloadBytes(new TextEncoder().encode(labelDocumentZpl(doc.data)), 'labels.zpl', 'text/plain')
            }
            data-testid="label-zpl"
          >
            {t('labels:zpl')}
          </Button>
          <Space.Compact>
            <WarehouseSelect
              value={warehouseId}
              onChange={(id) => {
                setWarehouseId(id);
                send.reset();
              }}
              autoPick
              style={{ minWidth: 160 }}
              aria-label={t('labels:printerWarehouse')}
              data-testid="label-printer-warehouse"
            />
            <Button
              icon={<PrinterOutlined />}
              disabled={!doc.data || !warehouseId}
              loading={send.isPending}
              title={t('labels:sendToPrinterHint')}
              onClick={sendToPrinter}
              data-testid="label-send-printer"
            >
              {t('labels:sendToPrinter')}
            </Button>
          </Space.Compact>
          {send.isSuccess ? (
            <Typography.Text type="success" data-testid="label-sent">
              {t('labels:sentToPrinter', { count: send.data.labels, printer: send.data.printer })}
            </Typography.Text>
          ) : null}
          {send.isError ? (
            <Typography.Text type="danger" data-testid="label-send-error">
              {errorText(send.error)}
            </Typography.Text>
          ) : null}
          {doc.data ? (
            <Typography.Text type="secondary" data-testid="label-total">
              {t('labels:total', { labels: doc.data.label_count, pages: doc.data.pages.length })}
            </Typography.Text>
          ) : null}
        </Space>
      </div>
      {props.request.items.length === 0 ? (
        <Alert className="no-print" type="info" showIcon title={t('labels:nothingSelected')} style={{ margin: 16 }} />
      ) : null}
      {doc.isError ? (
        <Alert className="no-print" type="error" showIcon title={errorText(doc.error)} style={{ margin: 16 }} />
      ) : null}
      {doc.isLoading ? <PageLoading /> : null}
      {doc.data ? (
        <>
          <style>{`${labelDocumentCss(doc.data.sheet)}
@media screen { .label-page { margin: 0 auto 16px; box-shadow: 0 0 8px rgba(0,0,0,.25); } }`}</style>
          <div
            data-testid="label-document"
            // The markup is built by the contracts from escaped text and the server's barcode SVGs.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: generated label markup, see labelDocumentHtml
            dangerouslySetInnerHTML={{ __html: labelDocumentHtml(doc.data, { outline }) }}
          />
        </>
      ) : null}
    </>
  );
}
