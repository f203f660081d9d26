import { CloudDownloadOutlined } from '@ant-design/icons';
import { carrierRoutes, type TConsignmentOutcome } from '@wms/contracts';
import { Alert, App, Button, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../shared/api/route-query';
import { errorText } from '../../../shared/forms/error-text';
import { outboundReads } from '../api';
import { CarrierLabelsButton } from './carrier-labels';
import { useOrderLabels } from './labels';

const OUTCOME_COLORS: Record<TConsignmentOutcome['outcome'], string> = {
  created: 'green',
  already: 'default',
  no_carrier: 'gold',
  failed: 'red',
};

/**
 * "Get consignment numbers" for the selected orders (/deliver-opser, /deliver-operation): the server asks each order's
 * carrier (ECPay logistics, …) and answers one result per order, shown in a table: nothing is lost silently.
 */
export function CarrierConsignmentsButton(props: { selected: string[]; onDone?: () => void }) {
  const { t } = useTranslation(['outbound', 'common']);
  const l = useOrderLabels();
  const { message } = App.useApp();
  const fetch = useRouteMutation(carrierRoutes.fetchConsignments, { invalidates: outboundReads });
  const [results, setResults] = useState<TConsignmentOutcome[] | null>(null);
  const count = (o: TConsignmentOutcome['outcome']) => results?.filter((r) => r.outcome === o).length ?? 0;
  // Orders numbered by a carrier that made a label, to print straight from the results.
  const printable = (results ?? []).filter((r) => r.outcome === 'created' && r.label).map((r) => r.order_id);

  const run = async () => {
    try {
      const r = await fetch.mutateAsync({ body: { order_ids: props.selected.slice(0, 100) } });
      setResults(r.results);
      props.onDone?.();
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <>
      <Button
        icon={<CloudDownloadOutlined />}
        disabled={!props.selected.length}
        loading={fetch.isPending}
        onClick={() => void run()}
        title={t('carrier.selectHint')}
        data-testid="carrier-fetch"
      >
        {props.selected.length ? t('carrier.buttonCount', { count: props.selected.length }) : t('carrier.button')}
      </Button>
      <Modal
        open={results !== null}
        title={t('carrier.title')}
        width={820}
        onCancel={() => setResults(null)}
        footer={
          <Space>
            {printable.length ? <CarrierLabelsButton selected={printable} type="primary" /> : null}
            <Button onClick={() => setResults(null)}>{t('common:actions.close')}</Button>
          </Space>
        }
        destroyOnHidden
      >
        {results ? (
          <Space orientation="vertical" style={{ width: '100%' }} data-testid="carrier-results">
            <Alert
              type={count('failed') ? 'warning' : 'success'}
              showIcon
              title={t('carrier.summary', {
                created: count('created'),
                skipped: count('already') + count('no_carrier'),
                failed: count('failed'),
              })}
            />
            <Table<TConsignmentOutcome>
              size="small"
              rowKey="order_id"
              pagination={false}
              dataSource={results}
              columns={[
                { title: l.field('number'), dataIndex: 'number', render: (v: string | null, r) => v ?? r.order_id },
                {
                  title: l.field('status'),
                  dataIndex: 'outcome',
                  render: (v: TConsignmentOutcome['outcome']) => (
                    <Tag color={OUTCOME_COLORS[v]} data-testid={`carrier-outcome-${v}`}>
                      {t(`carrier.outcome.${v}`)}
                    </Tag>
                  ),
                },
                { title: l.field('consignment_number'), dataIndex: 'consignment_number' },
                {
                  title: t('carrier.label'),
                  dataIndex: 'label',
                  render: (v: boolean, r) =>
                    r.outcome === 'created' ? (
                      <Tag color={v ? 'blue' : 'default'}>{v ? t('carrier.labelStored') : t('carrier.labelNone')}</Tag>
                    ) : null,
                },
                {
                  title: t('carrier.message'),
                  dataIndex: 'message',
                  render: (v: string | null, r) =>
                    v ??
                    (r.outcome === 'no_carrier'
                      ? t('carrier.noCarrierText')
                      : r.outcome === 'already'
                        ? t('carrier.alreadyText')
                        : ''),
                },
              ]}
            />
          </Space>
        ) : null}
      </Modal>
    </>
  );
}
