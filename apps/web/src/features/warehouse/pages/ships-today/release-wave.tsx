import { shipWaveRoutes, type TBatchDetail, type TShipsTodayRow } from '@wms/contracts';
import { App, Button, Checkbox, Form, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { useAreaOptions, warehouseReads } from '../../api';

interface TValues {
  max_orders: number;
  max_units: number | null;
  area_id: string | null;
  only_carrier: boolean;
}

/**
 * "Release next wave" of one board row (warehouse and carrier): the picker's limits, then the batch it made with its
 * pick lists (A4 / A5, in walking order).
 */
export function ReleaseWaveButton({ row, testKey }: { row: TShipsTodayRow; testKey: string }) {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<TBatchDetail | null>(null);
  const [form] = Form.useForm<TValues>();
  const areas = useAreaOptions(open && row.warehouse_id ? row.warehouse_id : undefined);
  const release = useRouteMutation(shipWaveRoutes.releaseWave, { invalidates: warehouseReads });
  if (!row.warehouse_id) return null;
  const warehouseId = row.warehouse_id;
  const carrier = row.provider_name ?? row.provider_code ?? t('board.noCarrier');

  const submit = async (v: TValues) => {
    try {
      const batch = await release.mutateAsync({
        body: {
          warehouse_id: warehouseId,
          logistics_provider_id: v.only_carrier ? row.logistics_provider_id : null,
          max_orders: v.max_orders,
          max_units: v.max_units ?? null,
          area_id: v.area_id ?? null,
        },
      });
      setDone(batch);
      void message.success(
        t('wave.released', { number: batch.number, orders: batch.order_count, units: batch.unit_count }),
      );
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <>
      <Button
        type="primary"
        size="large"
        onClick={() => {
          setDone(null);
          setOpen(true);
        }}
        data-testid={`board-release-${testKey}`}
      >
        {t('wave.release')}
      </Button>
      <Modal
        open={open}
        title={t('wave.title', { carrier, warehouse: row.warehouse_code ?? '' })}
        onCancel={() => setOpen(false)}
        footer={null}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('wave.hint')}</Typography.Paragraph>
        <Form<TValues>
          form={form}
          layout="vertical"
          initialValues={{ max_orders: 20, max_units: null, area_id: null, only_carrier: !!row.logistics_provider_id }}
          onFinish={(v) => void submit(v)}
          data-testid="wave-form"
        >
          <Space wrap>
            <Form.Item name="max_orders" label={t('wave.maxOrders')} rules={[{ required: true }]}>
              <InputNumber min={1} max={500} data-testid="wave-max-orders" />
            </Form.Item>
            <Form.Item name="max_units" label={t('wave.maxUnits')}>
              <InputNumber
                min={1}
                max={100000}
                placeholder={t('wave.maxUnitsPlaceholder')}
                data-testid="wave-max-units"
              />
            </Form.Item>
            <Form.Item name="area_id" label={t('wave.area')}>
              <Select
                style={{ width: 200 }}
                allowClear
                placeholder={t('wave.allAreas')}
                options={areas.data ?? []}
                data-testid="wave-area"
              />
            </Form.Item>
          </Space>
          {row.logistics_provider_id ? (
            <Form.Item name="only_carrier" valuePropName="checked">
              <Checkbox>
                {t('wave.anyCarrier')}: {carrier}
              </Checkbox>
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" loading={release.isPending} data-testid="wave-submit">
            {t('wave.submit')}
          </Button>
        </Form>
        {done ? (
          <div style={{ marginTop: 16 }} data-testid="wave-result">
            <Typography.Text strong data-testid="wave-batch-number">
              {t('wave.released', { number: done.number, orders: done.order_count, units: done.unit_count })}
            </Typography.Text>
            <Space style={{ marginTop: 8 }} wrap>
              <Button
                onClick={() => window.open(`/deliver-print-pick-A4/${done.id}`, '_blank')}
                data-testid="wave-print-a4"
              >
                {t('wave.printA4')}
              </Button>
              <Button onClick={() => window.open(`/deliver-print-pick/${done.id}?paper=A5`, '_blank')}>
                {t('wave.printA5')}
              </Button>
              <Button type="link" href="/deliver-opser">
                {t('wave.openBatches')}
              </Button>
            </Space>
          </div>
        ) : null}
      </Modal>
    </>
  );
}
