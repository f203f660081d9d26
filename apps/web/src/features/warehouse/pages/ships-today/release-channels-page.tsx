import { PlusOutlined } from '@ant-design/icons';
import {
  CHANNEL_PRIORITIES,
  CVS_CHAIN_CODES,
  CVS_CHAINS,
  releaseChannelRoutes,
  type TCreateReleaseChannel,
  type TReleaseChannel,
  ZCreateReleaseChannel,
} from '@wms/contracts';
import { Button, Form, type FormInstance, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions } from '../../../../shared/crud/crud';
import { formatDateTime } from '../../../../shared/format';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { useWarehouseOptions } from '../../../../shared/pickers/api';
import { DataTable } from '../../../../shared/table/data-table';
import { useProviderOptions } from '../../../partners/api';
import { useAreaOptions, warehouseReads } from '../../api';
import '../../i18n';
import { ChannelReleaseButton } from './channel-release';

type TForm = Omit<TCreateReleaseChannel, 'cutoff_time'> & { cutoff_time?: string | null };

const s = ZCreateReleaseChannel.shape;

function ChannelFields({ warehouseId }: { warehouseId: string | undefined }) {
  const { t } = useTranslation('warehouse');
  const warehouses = useWarehouseOptions();
  const providers = useProviderOptions();
  const areas = useAreaOptions(warehouseId);
  return (
    <>
      <Form.Item name="name" label={t('channels.name')} rules={[zodRule('name', s.name)]}>
        <Input data-testid="channel-name" />
      </Form.Item>
      <Form.Item name="warehouse_id" label={t('channels.warehouse')} rules={[zodRule('warehouse_id', s.warehouse_id)]}>
        <Select options={warehouses.data ?? []} data-testid="channel-warehouse" />
      </Form.Item>
      <Form.Item name="logistics_provider_ids" label={t('channels.carriers')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('channels.allCarriers')}
          options={providers.data ?? []}
          data-testid="channel-carriers"
        />
      </Form.Item>
      <Space wrap align="start">
        <Form.Item name="cvs_chain" label={t('channels.chain')}>
          <Select
            style={{ width: 180 }}
            allowClear
            placeholder={t('channels.anyChain')}
            options={CVS_CHAIN_CODES.map((c) => ({ value: c, label: CVS_CHAINS[c] }))}
            data-testid="channel-chain"
          />
        </Form.Item>
        <Form.Item name="area_id" label={t('channels.area')}>
          <Select
            style={{ width: 200 }}
            allowClear
            placeholder={t('channels.allAreas')}
            options={areas.data ?? []}
            data-testid="channel-area"
          />
        </Form.Item>
        <Form.Item
          name="cutoff_time"
          label={t('channels.cutoff')}
          tooltip={t('channels.cutoffHint')}
          rules={[zodRule('cutoff_time', s.cutoff_time)]}
        >
          <Input type="time" style={{ width: 130 }} data-testid="channel-cutoff" />
        </Form.Item>
      </Space>
      <Form.Item name="priority" label={t('channels.priority')}>
        <Select
          options={CHANNEL_PRIORITIES.map((p) => ({ value: p, label: t(`channels.priorities.${p}`) }))}
          data-testid="channel-priority"
        />
      </Form.Item>
      <Space wrap align="start">
        <Form.Item name="max_orders" label={t('channels.maxOrders')} rules={[zodRule('max_orders', s.max_orders)]}>
          <InputNumber min={1} max={500} precision={0} data-testid="channel-max-orders" />
        </Form.Item>
        <Form.Item name="max_units" label={t('channels.maxUnits')}>
          <InputNumber min={1} max={100000} precision={0} placeholder={t('channels.noLimit')} />
        </Form.Item>
        <Form.Item name="sequence" label={t('channels.sequence')}>
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
        <Form.Item name="active" label={t('channels.active')} valuePropName="checked">
          <Switch data-testid="channel-active" />
        </Form.Item>
      </Space>
    </>
  );
}

/**
 * /release-channels: the seller's saved release channels (named "release next wave" rules per warehouse), with what
 * each would release now and its next cut-off; a channel releases its next wave from here or from the board.
 */
export default function ReleaseChannelsPage() {
  const { t } = useTranslation(['warehouse', 'common']);
  const save = useSaveRoute(releaseChannelRoutes.createReleaseChannel, releaseChannelRoutes.updateReleaseChannel, {
    invalidates: warehouseReads,
  });
  const remove = useRouteMutation(releaseChannelRoutes.deleteReleaseChannel, { invalidates: warehouseReads });
  const [editing, setEditing] = useState<TReleaseChannel | 'new' | null>(null);
  const initial: Partial<TForm> =
    editing && editing !== 'new'
      ? {
          ...editing,
          max_units: editing.max_units ?? undefined,
        }
      : { priority: 'all', max_orders: 20, sequence: 10, active: true, logistics_provider_ids: [] };
  return (
    <>
      <Typography.Paragraph type="secondary">{t('warehouse:channels.hint')}</Typography.Paragraph>
      <DataTable<TReleaseChannel>
        {...routePage(releaseChannelRoutes.listReleaseChannels)}
        rowKey="id"
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="channel-add">
            {t('warehouse:channels.add')}
          </Button>
        }
        columns={[
          { title: t('warehouse:channels.sequence'), dataIndex: 'sequence', key: 'sequence', sorter: true, width: 90 },
          { title: t('warehouse:channels.name'), dataIndex: 'name', key: 'name', sorter: true },
          {
            title: t('warehouse:channels.warehouse'),
            dataIndex: 'warehouse_code',
            key: 'warehouse_code',
            sorter: true,
          },
          {
            title: t('warehouse:channels.carriers'),
            key: 'carriers',
            render: (_, c) =>
              `${c.provider_names.length ? c.provider_names.join(', ') : t('warehouse:channels.allCarriers')}${
                c.cvs_chain ? ` · ${CVS_CHAINS[c.cvs_chain]}` : ''
              }`,
          },
          {
            title: t('warehouse:channels.area'),
            key: 'area',
            render: (_, c) => c.area_code ?? t('warehouse:channels.allAreas'),
          },
          {
            title: t('warehouse:channels.priority'),
            key: 'priority',
            render: (_, c) => t(`warehouse:channels.priorities.${c.priority}`),
          },
          {
            title: `${t('warehouse:channels.maxOrders')} / ${t('warehouse:channels.maxUnits')}`,
            key: 'limits',
            render: (_, c) => `${c.max_orders} / ${c.max_units ?? t('warehouse:channels.noLimit')}`,
          },
          {
            title: t('warehouse:channels.openCount'),
            dataIndex: 'open_count',
            key: 'open_count',
            render: (n: number, c) => <span data-testid={`channel-open-${c.name}`}>{n}</span>,
          },
          {
            title: t('warehouse:channels.nextCutoff'),
            key: 'next_cutoff_at',
            render: (_, c) => (
              <span>
                {formatDateTime(c.next_cutoff_at)}
                {c.cutoff_time ? null : (
                  <Typography.Text type="secondary"> ({t('warehouse:channels.carriersCutoff')})</Typography.Text>
                )}
              </span>
            ),
          },
          {
            title: t('warehouse:channels.status'),
            key: 'active',
            render: (_, c) =>
              c.active ? (
                <Tag color="green">{t('warehouse:channels.active')}</Tag>
              ) : (
                <Tag>{t('warehouse:channels.inactive')}</Tag>
              ),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, c) => (
              <Space size={0}>
                {c.active ? <ChannelReleaseButton channel={c} size="small" /> : null}
                <RowActions
                  name={c.name}
                  onEdit={() => setEditing(c)}
                  onDelete={() => remove.mutateAsync({ params: { id: c.id } })}
                />
              </Space>
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        width={680}
        title={editing === 'new' ? t('warehouse:channels.add') : t('warehouse:channels.edit')}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={(v) =>
          save.mutateAsync({
            id: editing && editing !== 'new' ? editing.id : undefined,
            body: {
              warehouse_id: v.warehouse_id,
              name: v.name,
              logistics_provider_ids: v.logistics_provider_ids ?? [],
              cvs_chain: v.cvs_chain ?? null,
              cutoff_time: v.cutoff_time?.trim() ? v.cutoff_time : null,
              area_id: v.area_id ?? null,
              priority: v.priority ?? 'all',
              max_orders: v.max_orders,
              max_units: v.max_units ?? null,
              sequence: v.sequence ?? 10,
              active: v.active ?? true,
            },
          })
        }
      >
        {(f) => <ChannelFieldsWatch form={f} />}
      </CrudModal>
    </>
  );
}

/** The fields, with the zones of the warehouse chosen in the form. */
function ChannelFieldsWatch({ form }: { form: FormInstance<TForm> }) {
  const warehouseId = Form.useWatch('warehouse_id', form);
  return <ChannelFields warehouseId={warehouseId} />;
}
