import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CVS_CHAIN_CODES,
  CVS_CHAINS,
  SHIP_SLA_KINDS,
  shipRoutes,
  type TCvsChain,
  type TShipSla,
  type TWarehouseShipping,
  ZClockTime,
} from '@wms/contracts';
import { Button, Checkbox, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../shared/api/route-query';
import { CrudModal } from '../../../shared/crud/crud';
import { zodRule } from '../../../shared/forms/zod-rule';
import { useProviderOptions } from '../../partners/api';
import { warehouseReads } from '../api';
import '../i18n';

/** The seller's promise in words: "same day if ordered before 12:30", "next working day". */
export function useSlaText() {
  const { t } = useTranslation('warehouse');
  return (sla: TShipSla, cutoff?: string) =>
    sla.kind === 'next_day'
      ? t('ship.sla.next_day')
      : sla.before_time
        ? t('ship.sla.sameDayBefore', { time: sla.before_time })
        : t('ship.sla.sameDayCutoff', { time: cutoff ?? '' });
}

/** Edit the seller's promise (same day before a time, or next working day). */
export function ShipSlaModal(props: { open: boolean; sla: TShipSla; onClose: () => void }) {
  const { t } = useTranslation('warehouse');
  const save = useRouteMutation(shipRoutes.saveShipSla, { invalidates: warehouseReads });
  return (
    <CrudModal<{ kind: TShipSla['kind']; before_time?: string }>
      open={props.open}
      title={t('ship.sla.title')}
      initialValues={{ kind: props.sla.kind, before_time: props.sla.before_time ?? '' }}
      onClose={props.onClose}
      onSubmit={(v) =>
        save.mutateAsync({
          body: { kind: v.kind, before_time: v.kind === 'same_day' && v.before_time ? v.before_time : null },
        })
      }
    >
      {() => (
        <>
          <Form.Item name="kind" label={t('ship.sla.kind')}>
            <Radio.Group
              options={SHIP_SLA_KINDS.map((k) => ({ value: k, label: t(`ship.sla.kinds.${k}`) }))}
              data-testid="ship-sla-kind"
            />
          </Form.Item>
          <Form.Item noStyle dependencies={['kind']}>
            {({ getFieldValue }) =>
              getFieldValue('kind') === 'same_day' ? (
                <Form.Item
                  name="before_time"
                  label={t('ship.sla.beforeTime')}
                  extra={t('ship.sla.beforeTimeHint')}
                  rules={[zodRule('before_time', ZClockTime.optional())]}
                >
                  <Input type="time" style={{ width: 140 }} data-testid="ship-sla-before" />
                </Form.Item>
              ) : null
            }
          </Form.Item>
        </>
      )}
    </CrudModal>
  );
}

const cutoffRule = zodRule('cutoff_time', ZClockTime);
const pickupRule = zodRule('pickup_time', ZClockTime);

type TCalendarForm = {
  cutoffs: Array<{
    logistics_provider_id?: string;
    cvs_chain?: TCvsChain | null;
    cutoff_time?: string;
    pickup_time?: string;
  }>;
  working_days: number[];
  holidays: Dayjs[];
};

/** Monday first, as a Taiwanese calendar shows them (0 is Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

/** A warehouse's daily cut-off and pick-up time per carrier, its working weekdays and its holidays. */
export function WarehouseShippingModal(props: { warehouse: TWarehouseShipping | null; onClose: () => void }) {
  const { t } = useTranslation('warehouse');
  const providers = useProviderOptions();
  const save = useRouteMutation(shipRoutes.saveWarehouseShipping, { invalidates: warehouseReads });
  const w = props.warehouse;
  return (
    <CrudModal<TCalendarForm>
      open={w !== null}
      width={860}
      title={t('ship.calendar.title', { warehouse: w ? `${w.warehouse_code} ${w.warehouse_name}` : '' })}
      initialValues={{
        cutoffs: w?.cutoffs.map((c) => ({ ...c })) ?? [],
        working_days: w?.working_days ?? [1, 2, 3, 4, 5],
        holidays: w?.holidays.map((d) => dayjs(d)) ?? [],
      }}
      onClose={props.onClose}
      onSubmit={(v) =>
        save.mutateAsync({
          params: { id: w!.warehouse_id },
          body: {
            cutoffs: (v.cutoffs ?? []).map((c) => ({
              logistics_provider_id: c.logistics_provider_id!,
              cvs_chain: c.cvs_chain ?? null,
              cutoff_time: c.cutoff_time!,
              pickup_time: c.pickup_time!,
            })),
            working_days: v.working_days,
            holidays: (v.holidays ?? []).map((d) => d.format('YYYY-MM-DD')),
          },
        })
      }
    >
      {() => (
        <>
          <p style={{ marginTop: 0 }}>{t('ship.calendar.hint')}</p>
          <Form.List name="cutoffs">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="start" wrap data-testid="ship-cutoff-row">
                    <Form.Item
                      name={[f.name, 'logistics_provider_id']}
                      label={t('ship.calendar.carrier')}
                      rules={[{ required: true, message: t('ship.calendar.carrierRequired') }]}
                    >
                      <Select style={{ width: 220 }} options={providers.data ?? []} data-testid="ship-cutoff-carrier" />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'cvs_chain']}
                      label={t('ship.calendar.chain')}
                      tooltip={t('ship.calendar.chainHint')}
                    >
                      <Select
                        style={{ width: 150 }}
                        allowClear
                        placeholder={t('ship.calendar.anyChain')}
                        options={CVS_CHAIN_CODES.map((c) => ({ value: c, label: CVS_CHAINS[c] }))}
                        data-testid="ship-cutoff-chain"
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'cutoff_time']} label={t('ship.calendar.cutoff')} rules={[cutoffRule]}>
                      <Input type="time" style={{ width: 130 }} data-testid="ship-cutoff-time" />
                    </Form.Item>
                    <Form.Item name={[f.name, 'pickup_time']} label={t('ship.calendar.pickup')} rules={[pickupRule]}>
                      <Input type="time" style={{ width: 130 }} data-testid="ship-pickup-time" />
                    </Form.Item>
                    <Form.Item label=" ">
                      <Button
                        icon={<DeleteOutlined />}
                        onClick={() => remove(f.name)}
                        aria-label={t('crud.delete', { ns: 'common' })}
                        title={t('crud.delete', { ns: 'common' })}
                      />
                    </Form.Item>
                  </Space>
                ))}
                <Form.Item>
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({ cutoff_time: '12:00', pickup_time: '17:00' })}
                    data-testid="ship-cutoff-add"
                  >
                    {t('ship.calendar.addCarrier')}
                  </Button>
                </Form.Item>
              </>
            )}
          </Form.List>
          <Form.Item
            name="working_days"
            label={t('ship.calendar.workingDays')}
            rules={[{ required: true, message: t('ship.calendar.workingDaysRequired') }]}
          >
            <Checkbox.Group
              options={WEEK.map((d) => ({ value: d, label: t(`ship.weekdays.${d}`) }))}
              data-testid="ship-working-days"
            />
          </Form.Item>
          <Form.Item name="holidays" label={t('ship.calendar.holidays')} extra={t('ship.calendar.holidaysHint')}>
            <DatePicker multiple style={{ width: '100%' }} data-testid="ship-holidays" />
          </Form.Item>
        </>
      )}
    </CrudModal>
  );
}
