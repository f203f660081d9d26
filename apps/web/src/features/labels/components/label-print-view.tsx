import { ArrowLeftOutlined, DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { labelDocumentCss, labelDocumentHtml, labelDocumentZpl, SYMBOLOGIES, type TLabelRequest } from '@wms/contracts';
import { Alert, Button, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { downloadBytes } from '../../../shared/excel/use-excel-export';
import { errorText } from '../../../shared/forms/error-text';
import { PageLoading } from '../../../shared/ui/page-loading';
import { useLabelDocument, useLabelSheets } from '../api';
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
  useEffect(() => {
    if (!sheetId && sheets.length) setSheetId((sheets.find((s) => s.cells === 45) ?? sheets[0])!.id);
  }, [sheetId, sheets]);
  const request: TLabelRequest | null = sheetId
    ? { ...props.request, sheet_id: sheetId, show_name: showName, symbology, start_cell: startCell }
    : null;
  const doc = useLabelDocument(request);
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
