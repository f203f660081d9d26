import { Card, Col, Empty, List, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMemberSession } from '../../../../shared/auth/session';
import { formatDateTime } from '../../../../shared/format';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { OrderStatusTag } from '../../../outbound/components/labels';
import { useMemberCatalog, useMemberPurchase, useRecentMemberOrders } from '../../api';
import { DirectPurchase } from '../../components/direct-purchase';

/** /store/dashboard: the store, ordering its listed products, and the member's recent orders with their states. */
export default function StoreDashboardPage() {
  const { t } = useTranslation('store');
  const member = useMemberSession();
  const catalog = useMemberCatalog();
  const purchase = useMemberPurchase();
  const recent = useRecentMemberOrders();
  const profile = member?.profile;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <Card
          title={
            <Space>
              {catalog.data?.store.logo ? (
                <img src={catalog.data.store.logo} alt={catalog.data.store.name} style={{ height: 32 }} />
              ) : null}
              {t('portal.shop')}
            </Space>
          }
        >
          {catalog.data?.store.description ? (
            <Typography.Paragraph type="secondary">{catalog.data.store.description}</Typography.Paragraph>
          ) : null}
          {catalog.isPending ? (
            <PageLoading />
          ) : catalog.data ? (
            <DirectPurchase
              catalog={catalog.data}
              closed={!catalog.data.store.is_open}
              recipient={{
                recipient_name: profile?.name,
                recipient_phone: profile?.phone,
                recipient_postcode: profile?.postcode,
                recipient_address: profile?.address,
              }}
              onSubmit={(body) => purchase.mutateAsync(body)}
            />
          ) : null}
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card title={t('portal.recent')} data-testid="recent-orders">
          {recent.data?.results.length ? (
            <List
              dataSource={recent.data.results}
              renderItem={(o) => (
                <List.Item extra={<OrderStatusTag status={o.status} />}>
                  <List.Item.Meta
                    title={o.number}
                    description={`${formatDateTime(o.created_at)} · ${o.lines.map((l) => `${l.product_name} × ${l.quantity}`).join(', ')}`}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Empty description={t('portal.noOrders')} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
