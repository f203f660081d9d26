import { ArrowDownOutlined } from '@ant-design/icons';
import { Card, theme } from 'antd';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TManualPage } from '../routes/route-table';
import { manualHref } from './manual-pages';

/** The system flow chart: the main path of goods through the product, each step linking to its manual page. */
const STEPS: Array<{ key: string; pages: TManualPage[] }> = [
  { key: 'account', pages: ['', '2fa'] },
  { key: 'basics', pages: ['corporation', 'warehouse', 'express-provider', 'ecommerce-channel', 'package'] },
  { key: 'products', pages: ['product', 'product-print'] },
  { key: 'inbound', pages: ['entry', 'entry-confirm'] },
  { key: 'stock', pages: ['product-stock', 'stock-transfer', 'inventory'] },
  { key: 'orders', pages: ['deliver', 'deliver-customize-form'] },
  { key: 'shipping', pages: ['deliver-operation', 'deliver-opser'] },
  { key: 'returns', pages: ['return', 'return-confirm'] },
  { key: 'analysis', pages: ['purchase-advice', 'deliver-statistics', 'stock-age'] },
];

export function Flowchart() {
  const { t } = useTranslation('manual');
  const { token } = theme.useToken();
  return (
    <div data-testid="flowchart" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}>
      {STEPS.map((step, i) => (
        <Fragment key={step.key}>
          {i > 0 ? <ArrowDownOutlined style={{ fontSize: 20, color: token.colorPrimary }} /> : null}
          <Card
            size="small"
            style={{ width: '100%', maxWidth: 560, borderColor: token.colorPrimaryBorder }}
            title={`${i + 1}. ${t(`flow.${step.key}.title` as never)}`}
          >
            <div>{t(`flow.${step.key}.body` as never)}</div>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginTop: 8 }}>
              {step.pages.map((p) => (
                <Link key={p} to={manualHref(p)}>
                  {t(`pages.${p || 'index'}` as never)}
                </Link>
              ))}
            </div>
          </Card>
        </Fragment>
      ))}
    </div>
  );
}
