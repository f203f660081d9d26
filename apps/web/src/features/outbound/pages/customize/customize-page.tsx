import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { DEFAULT_COLUMNS, ORDER_COLUMNS, outboundRoutes, type TOrderColumn } from '@wms/contracts';
import { App, Button, Card, Checkbox, Col, List, Row, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { outboundReads, useColumnSettings } from '../../api';
import { useOrderLabels } from '../../components/labels';
import '../../i18n';

type TScreen = 'deliver_list' | 'deliver_export';

function ColumnsEditor(props: { screen: TScreen; value: TOrderColumn[] }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const save = useRouteMutation(outboundRoutes.saveColumnSettings, { invalidates: outboundReads });
  const [chosen, setChosen] = useState<TOrderColumn[]>(props.value);
  useEffect(() => setChosen(props.value), [props.value]);

  const move = (i: number, d: -1 | 1) =>
    setChosen((c) => {
      const next = [...c];
      const j = i + d;
      if (j < 0 || j >= next.length) return c;
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });

  const onSave = async () => {
    try {
      await save.mutateAsync({ body: { screen: props.screen, columns: chosen } as never });
      void message.success(t('common:messages.saved'));
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <Card
      size="small"
      title={t(props.screen === 'deliver_list' ? 'customize.list' : 'customize.export')}
      extra={
        <Space>
          <Button onClick={() => setChosen(DEFAULT_COLUMNS[props.screen])}>{t('customize.default')}</Button>
          <Button
            type="primary"
            loading={save.isPending}
            disabled={!chosen.length}
            onClick={() => void onSave()}
            data-testid={`customize-save-${props.screen}`}
          >
            {t('common:actions.save')}
          </Button>
        </Space>
      }
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Typography.Text type="secondary">{t('customize.available')}</Typography.Text>
          <Checkbox.Group
            style={{ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 4, marginTop: 8 }}
            value={chosen}
            onChange={(v) => {
              const picked = v as TOrderColumn[];
              setChosen((c) => [...c.filter((x) => picked.includes(x)), ...picked.filter((x) => !c.includes(x))]);
            }}
            options={ORDER_COLUMNS.map((c) => ({ value: c, label: l.field(c) }))}
            data-testid={`customize-${props.screen}`}
          />
        </Col>
        <Col xs={24} md={12}>
          <Typography.Text type="secondary">{t('customize.chosen')}</Typography.Text>
          <List
            size="small"
            bordered
            style={{ marginTop: 8 }}
            dataSource={chosen}
            renderItem={(c, i) => (
              <List.Item
                actions={[
                  <Button
                    key="up"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    onClick={() => move(i, -1)}
                    aria-label={t('customize.up')}
                  />,
                  <Button
                    key="down"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    onClick={() => move(i, 1)}
                    aria-label={t('customize.down')}
                  />,
                ]}
              >
                {i + 1}. {l.field(c)}
              </List.Item>
            )}
          />
        </Col>
      </Row>
    </Card>
  );
}

/** /customize (order customization): which columns the order list and the standard export show, in which order. */
export default function CustomizePage() {
  const { t } = useTranslation(['outbound']);
  const settings = useColumnSettings();
  if (!settings.data) return null;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('customize.hint')}</Typography.Paragraph>
      <ColumnsEditor screen="deliver_list" value={settings.data.deliver_list} />
      <ColumnsEditor screen="deliver_export" value={settings.data.deliver_export} />
    </Space>
  );
}
