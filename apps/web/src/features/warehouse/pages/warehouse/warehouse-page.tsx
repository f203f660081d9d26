import { ClockCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CVS_CHAINS,
  shipRoutes,
  type TWarehouse,
  type TWarehouseShipping,
  warehouseRoutes,
  ZCreateWarehouse,
} from '@wms/contracts';
import { Button, Form, Input, InputNumber, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRoute, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions } from '../../../../shared/crud/crud';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { DataTable } from '../../../../shared/table/data-table';
import { warehouseReads } from '../../api';
import { ShipSlaModal, useSlaText, WarehouseShippingModal } from '../../components/ship-settings';
import '../../i18n';

type TForm = {
  code: string;
  name: string;
  address?: string;
  label_printer_host?: string | null;
  label_printer_port?: number | null;
};

/**
 * /warehouse: the seller's warehouses (code, name, address), each with its carriers' daily cut-off and pick-up times
 * and its holidays, and the seller's shipping promise: what every new order's ship-by time is computed from.
 */
export default function WarehousePage() {
  const { t } = useTranslation(['warehouse', 'common']);
  const label = useFieldLabel();
  const save = useSaveRoute(warehouseRoutes.createWarehouse, warehouseRoutes.updateWarehouse, {
    invalidates: warehouseReads,
  });
  const remove = useRouteMutation(warehouseRoutes.deleteWarehouse, { invalidates: warehouseReads });
  const [editing, setEditing] = useState<TWarehouse | 'new' | null>(null);
  const ship = useRoute(shipRoutes.getShipSettings, {});
  const slaText = useSlaText();
  const [slaOpen, setSlaOpen] = useState(false);
  const [calendar, setCalendar] = useState<TWarehouseShipping | null>(null);
  const shippingOf = (id: string) => ship.data?.warehouses.find((x) => x.warehouse_id === id);
  const s = ZCreateWarehouse.shape;
  return (
    <>
      <DataTable<TWarehouse>
        {...routePage(warehouseRoutes.listWarehouses)}
        rowKey="id"
        excel={{ fileName: 'warehouses' }}
        toolbar={
          <Space wrap>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('common:crud.add')}
            </Button>
            {ship.data ? (
              <Button icon={<ClockCircleOutlined />} onClick={() => setSlaOpen(true)} data-testid="ship-sla-open">
                {t('warehouse:ship.sla.button', {
                  promise: slaText(ship.data.sla, ship.data.default_cutoff.cutoff_time),
                })}
              </Button>
            ) : null}
          </Space>
        }
        columns={[
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('address'), dataIndex: 'address' },
          {
            title: t('warehouse:ship.calendar.column'),
            key: 'ship',
            noExport: true,
            render: (_, w) => {
              const x = shippingOf(w.id);
              if (!x) return null;
              return (
                <Space orientation="vertical" size={0} data-testid={`ship-summary-${w.code}`}>
                  {x.cutoffs.map((c) => (
                    <span key={`${c.logistics_provider_id}-${c.cvs_chain ?? ''}`}>
                      {t('warehouse:ship.calendar.summary', {
                        carrier: c.cvs_chain ? `${c.provider_name} ${CVS_CHAINS[c.cvs_chain]}` : c.provider_name,
                        cutoff: c.cutoff_time,
                        pickup: c.pickup_time,
                      })}
                    </span>
                  ))}
                  {x.cutoffs.length === 0 ? (
                    <span style={{ color: 'var(--ant-color-text-secondary)' }}>
                      {t('warehouse:ship.calendar.defaultSummary', ship.data!.default_cutoff)}
                    </span>
                  ) : null}
                  {x.holidays.length ? (
                    <span style={{ color: 'var(--ant-color-text-secondary)' }}>
                      {t('warehouse:ship.calendar.holidayCount', { count: x.holidays.length })}
                    </span>
                  ) : null}
                </Space>
              );
            },
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, w) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<ClockCircleOutlined />}
                  disabled={!shippingOf(w.id)}
                  onClick={() => setCalendar(shippingOf(w.id) ?? null)}
                  data-testid={`ship-calendar-${w.code}`}
                >
                  {t('warehouse:ship.calendar.button')}
                </Button>
                <RowActions
                  name={`${w.code} ${w.name}`}
                  onEdit={() => setEditing(w)}
                  onDelete={() => remove.mutateAsync({ params: { id: w.id } })}
                />
              </Space>
            ),
          },
        ]}
      />
      <CrudModal<TForm>
        open={editing !== null}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={editing && editing !== 'new' ? editing : {}}
        onClose={() => setEditing(null)}
        onSubmit={(body) =>
          save.mutateAsync({
            id: editing && editing !== 'new' ? editing.id : undefined,
            // An emptied printer box clears the printer.
            body: {
              ...body,
              label_printer_host: body.label_printer_host?.trim() || null,
              label_printer_port: body.label_printer_port ?? null,
            },
          })
        }
      >
        {() => (
          <>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input />
            </Form.Item>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input />
            </Form.Item>
            <Form.Item name="address" label={label('address')}>
              <Input />
            </Form.Item>
            <Space align="start" wrap>
              <Form.Item
                name="label_printer_host"
                label={label('label_printer_host')}
                extra={t('warehouse:printer.hint')}
                rules={[zodRule('label_printer_host', s.label_printer_host)]}
              >
                <Input placeholder="192.168.1.50" data-testid="warehouse-printer-host" style={{ width: 240 }} />
              </Form.Item>
              <Form.Item name="label_printer_port" label={label('label_printer_port')}>
                <InputNumber
                  min={1}
                  max={65535}
                  precision={0}
                  placeholder="9100"
                  data-testid="warehouse-printer-port"
                />
              </Form.Item>
            </Space>
          </>
        )}
      </CrudModal>
      {ship.data ? <ShipSlaModal open={slaOpen} sla={ship.data.sla} onClose={() => setSlaOpen(false)} /> : null}
      <WarehouseShippingModal warehouse={calendar} onClose={() => setCalendar(null)} />
    </>
  );
}
