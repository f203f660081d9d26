import { PrinterOutlined } from '@ant-design/icons';
import { catalogRoutes, SYMBOLOGIES, type TProduct, type TSymbology } from '@wms/contracts';
import { Button, Card, Checkbox, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { apiCall } from '../../../../shared/api/client';
import { routePage } from '../../../../shared/api/route-query';
import { useProfile } from '../../../../shared/auth/session';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { DataTable } from '../../../../shared/table/data-table';
import { encodePrintData } from '../../api';
import { defaultSheet, useSheetOptions } from '../../components/label-print-view';
import '../../i18n';

/** /product-print: choose products and copies, a 45/60/88-cell sheet, with or without name → print preview. */
export default function ProductPrintPage() {
  const { t } = useTranslation(['labels', 'common']);
  const label = useFieldLabel();
  const navigate = useNavigate();
  const location = useLocation();
  const { sheets, options } = useSheetOptions();
  const [copies, setCopies] = useState<Map<string, { product: TProduct; copies: number }>>(new Map());
  const [sheetId, setSheetId] = useState<string>();
  const [showName, setShowName] = useState(true);
  const [symbology, setSymbology] = useState<TSymbology>('auto');
  const labelFormat = useProfile()?.label_format ?? 'sheet';
  useEffect(() => {
    if (!sheetId && sheets.length) setSheetId(defaultSheet(sheets, labelFormat, 'product')!.id);
  }, [sheetId, sheets, labelFormat]);
  // Products ticked on /product arrive in the navigation state.
  useEffect(() => {
    const ids = (location.state as { ids?: string[] } | null)?.ids;
    if (!ids?.length) return;
    void apiCall(catalogRoutes.listProducts, { query: { ids: ids.join(','), page_size: 100 } }).then((res) =>
      setCopies(new Map(res.results.map((p) => [p.id, { product: p, copies: 1 }]))),
    );
  }, [location.state]);
  const set = (p: TProduct, n: number | null) =>
    setCopies((prev) => {
      const next = new Map(prev);
      if (n && n > 0) next.set(p.id, { product: p, copies: n });
      else next.delete(p.id);
      return next;
    });
  const items = [...copies.values()].map((c) => ({ id: c.product.id, copies: c.copies }));
  const preview = () =>
    navigate(
      `/product-print-preview/${encodePrintData({ kind: 'product', sheet_id: sheetId!, items, show_name: showName, symbology })}`,
    );
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <Select
            style={{ minWidth: 320 }}
            value={sheetId}
            onChange={setSheetId}
            options={options}
            aria-label={t('labels:sheet')}
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
          <Typography.Text>{t('common:crud.selected', { count: items.length })}</Typography.Text>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!sheetId || items.length === 0} onClick={preview}>
            {t('labels:preview')}
          </Button>
        </Space>
      </Card>
      <Typography.Text type="secondary">{t('labels:chooseProducts')}</Typography.Text>
      <DataTable<TProduct>
        {...routePage(catalogRoutes.listProducts)}
        rowKey="id"
        columns={[
          {
            title: t('common:crud.select'),
            key: 'select',
            render: (_, p) => (
              <Checkbox
                aria-label={t('common:crud.select')}
                checked={copies.has(p.id)}
                onChange={(e) => set(p, e.target.checked ? 1 : 0)}
              />
            ),
          },
          { title: label('number'), dataIndex: 'number', key: 'number', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('barcode'), dataIndex: 'barcode' },
          {
            title: t('labels:copies'),
            key: 'copies',
            render: (_, p) => (
              <InputNumber
                min={0}
                max={999}
                precision={0}
                value={copies.get(p.id)?.copies ?? 0}
                onChange={(v) => set(p, v)}
                aria-label={t('labels:copies')}
              />
            ),
          },
        ]}
      />
    </Space>
  );
}
