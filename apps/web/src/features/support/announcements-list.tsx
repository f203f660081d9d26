import { CheckOutlined, PushpinFilled } from '@ant-design/icons';
import type { TNotice } from '@wms/contracts';
import { App, Button, Card, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { errorText } from '../../shared/forms/error-text';
import { Markdown } from '../../shared/markdown/markdown';
import { useAcknowledge } from './notices-api';
import './i18n';

/** The operator's announcements (announcements-card.tsx loads this when there are some); each can be acknowledged. */
export default function AnnouncementsList({ notices }: { notices: TNotice[] }) {
  const { t } = useTranslation('support');
  const { message } = App.useApp();
  const ack = useAcknowledge();
  return (
    <Card title={t('notices.title')} data-testid="announcements">
      <List
        dataSource={notices}
        renderItem={(n) => (
          <List.Item
            data-testid="announcement"
            actions={[
              n.acknowledged_at ? (
                <Tag key="ack" icon={<CheckOutlined />} color="green">
                  {t('notices.acknowledged')}
                </Tag>
              ) : (
                <Button
                  key="ack"
                  size="small"
                  onClick={() => ack.mutateAsync(n.id).catch((err) => message.error(errorText(err)))}
                  data-testid="announcement-ack"
                >
                  {t('notices.acknowledge')}
                </Button>
              ),
            ]}
          >
            <List.Item.Meta
              title={
                <Space>
                  {n.pinned ? <PushpinFilled style={{ color: '#fa541c' }} /> : null}
                  {n.title}
                  <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
                    {formatDateTime(n.starts_at)}
                  </Typography.Text>
                </Space>
              }
              description={<Markdown source={n.body} />}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
