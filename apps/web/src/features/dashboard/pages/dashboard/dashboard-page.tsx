import { CheckCircleTwoTone, ClockCircleOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, List, Row, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAIN_PATHS, type TMainPath } from '../../../../routes/route-table';
import { screenTitle } from '../../../../routes/screen-title';
import { SCREENS } from '../../../../routes/screens';
import { useProfile } from '../../../../shared/auth/session';
import { MY_BUILD_ID } from '../../../../shared/build/build-check';
import { formatDateTime } from '../../../../shared/format';
import { AnnouncementsCard } from '../../../support/announcements-card';
import { useServerBuild } from '../../api';

/** First steps of a new seller, in the order the flow chart shows; each links to its screen. */
const GETTING_STARTED: TMainPath[] = ['/corporation', '/warehouse', '/subzone', '/product', '/entry', '/deliver'];

/** /dashboard: a first version from the data that exists (account, security, system); analytics grows it. */
export default function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'common', 'nav']);
  const profile = useProfile();
  const build = useServerBuild();
  if (!profile) return null;
  const ready = MAIN_PATHS.filter((p) => SCREENS[p]).length;

  return (
    <div style={{ display: 'grid', gap: 24 }}>
      <AnnouncementsCard />
      <Typography.Title level={3} style={{ margin: 0 }} data-testid="dashboard-welcome">
        {t('welcome', { name: profile.name })}
      </Typography.Title>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title={t('company')} value={profile.company?.name ?? '—'} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card>
            <Statistic
              title={t('security.title')}
              value={profile.two_factor_enabled ? t('security.on') : t('security.off')}
              prefix={profile.two_factor_enabled ? <CheckCircleTwoTone twoToneColor="#52c41a" /> : null}
            />
            {profile.two_factor_enabled ? null : (
              <Link to="/two-factor">
                <Button type="link" style={{ paddingInline: 0 }}>
                  {t('security.enable')}
                </Button>
              </Link>
            )}
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title={t('screensReady')} value={ready} suffix={`/ ${MAIN_PATHS.length}`} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={14}>
          <Card title={t('gettingStarted.title')}>
            <List
              dataSource={GETTING_STARTED}
              renderItem={(path, i) => (
                <List.Item
                  extra={
                    SCREENS[path] ? null : (
                      <Tag icon={<ClockCircleOutlined />} color="default">
                        {t('gettingStarted.soon')}
                      </Tag>
                    )
                  }
                >
                  <List.Item.Meta
                    title={
                      <Link to={path}>
                        {i + 1}. {screenTitle(path)}
                      </Link>
                    }
                    description={t(`gettingStarted.steps.${i}` as never)}
                  />
                </List.Item>
              )}
            />
            <Link to="/user-manual/flowchart">{t('gettingStarted.flowchart')}</Link>
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('account.title')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('account.email')}>{profile.email}</Descriptions.Item>
              <Descriptions.Item label={t('account.language')}>
                {t(`common:language.${profile.language}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.theme')}>{t(`common:theme.${profile.theme}`)}</Descriptions.Item>
              <Descriptions.Item label={t('account.since')}>{formatDateTime(profile.created_at)}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('system.title')} style={{ marginTop: 24 }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('system.version')}>{build.data?.version ?? '…'}</Descriptions.Item>
              <Descriptions.Item label={t('system.serverBuild')}>{build.data?.build_id ?? '…'}</Descriptions.Item>
              <Descriptions.Item label={t('system.appBuild')}>{MY_BUILD_ID}</Descriptions.Item>
            </Descriptions>
            <Link to="/user-manual/version">{t('system.history')}</Link>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
