import { AppstoreAddOutlined, DeleteOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  LOCATION_KIND_VALUES,
  locationCode,
  type TArea,
  type TShelf,
  type TStorageLocation,
  warehouseRoutes,
  ZCreateArea,
  ZCreateShelf,
  ZCreateStorageLocation,
  ZGenerateLocations,
} from '@wms/contracts';
import {
  App,
  Button,
  Checkbox,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { apiCall } from '../../../../shared/api/client';
import { routePage, useRouteMutation, useSaveRoute } from '../../../../shared/api/route-query';
import { CrudModal, RowActions, useSelection } from '../../../../shared/crud/crud';
import { downloadFile } from '../../../../shared/download';
import { errorText } from '../../../../shared/forms/error-text';
import { useFieldLabel } from '../../../../shared/forms/field-label';
import { zodRule } from '../../../../shared/forms/zod-rule';
import { ImportButton } from '../../../../shared/jobs/import-button';
import { DataTable } from '../../../../shared/table/data-table';
import { refreshWarehouse, useAreaOptions, useShelfOptions, warehouseReads } from '../../api';
import '../../i18n';
import { useWarehouseOptions } from '../../../../shared/pickers/api';
import { WarehouseSelect } from '../../../../shared/pickers/warehouse-select';

function WarehouseFilter() {
  const { t } = useTranslation('warehouse');
  return (
    <Form.Item name="warehouse_id">
      <WarehouseSelect
        allowClear
        style={{ minWidth: 180 }}
        placeholder={t('filters.warehouse')}
        aria-label={t('fields.warehouse')}
      />
    </Form.Item>
  );
}

function AreasTab() {
  const { t } = useTranslation(['warehouse', 'common']);
  const label = useFieldLabel();
  const save = useSaveRoute(warehouseRoutes.createArea, warehouseRoutes.updateArea, { invalidates: warehouseReads });
  const remove = useRouteMutation(warehouseRoutes.deleteArea, { invalidates: warehouseReads });
  const warehouses = useWarehouseOptions();
  const [editing, setEditing] = useState<TArea | 'new' | null>(null);
  const s = ZCreateArea.shape;
  return (
    <>
      <DataTable<TArea>
        {...routePage(warehouseRoutes.listAreas)}
        rowKey="id"
        excel={{ fileName: 'areas' }}
        filters={<WarehouseFilter />}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="add-area">
            {t('common:crud.add')}
          </Button>
        }
        columns={[
          { title: t('warehouse:fields.warehouse'), dataIndex: 'warehouse_code', key: 'warehouse_code', sorter: true },
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, a) => (
              <RowActions
                name={a.code}
                onEdit={() => setEditing(a)}
                onDelete={() => remove.mutateAsync({ params: { id: a.id } })}
              />
            ),
          },
        ]}
      />
      <CrudModal<{ warehouse_id: string; code: string; name: string }>
        open={editing !== null}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={editing && editing !== 'new' ? editing : { warehouse_id: warehouses.data?.[0]?.value }}
        onClose={() => setEditing(null)}
        onSubmit={(v) =>
          editing && editing !== 'new'
            ? save.mutateAsync({ id: editing.id, body: { code: v.code, name: v.name } })
            : save.mutateAsync({ body: v })
        }
      >
        {() => (
          <>
            <Form.Item
              name="warehouse_id"
              label={t('warehouse:fields.warehouse')}
              rules={[zodRule('warehouse_id', s.warehouse_id)]}
            >
              <WarehouseSelect disabled={editing !== 'new'} />
            </Form.Item>
            <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
              <Input />
            </Form.Item>
            <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
              <Input />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}

type TShelfForm = {
  warehouse_id: string;
  area_id?: string | null;
  code: string;
  name: string;
  category?: string;
  layers: number;
};

function ShelfFields({ form, warehouseId, isNew }: { form: FormInstance; warehouseId?: string; isNew: boolean }) {
  const { t } = useTranslation('warehouse');
  const label = useFieldLabel();
  const areas = useAreaOptions(warehouseId);
  // A new shelf in a warehouse with one area: that area is chosen (it can still be cleared).
  const onlyArea = isNew && areas.data?.length === 1 ? areas.data[0]!.value : undefined;
  useEffect(() => {
    if (onlyArea && !form.getFieldValue('area_id')) form.setFieldValue('area_id', onlyArea);
  }, [form, onlyArea]);
  const s = ZCreateShelf.shape;
  return (
    <>
      <Form.Item name="warehouse_id" label={t('fields.warehouse')} rules={[zodRule('warehouse_id', s.warehouse_id)]}>
        <WarehouseSelect disabled={!isNew} />
      </Form.Item>
      <Form.Item name="area_id" label={t('fields.area')}>
        <Select allowClear options={areas.data ?? []} />
      </Form.Item>
      <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
        <Input />
      </Form.Item>
      <Form.Item name="name" label={label('name')} rules={[zodRule('name', s.name)]}>
        <Input />
      </Form.Item>
      <Form.Item name="category" label={label('category')}>
        <Input />
      </Form.Item>
      <Form.Item name="layers" label={label('layers')} rules={[zodRule('layers', s.layers)]}>
        <InputNumber min={1} max={99} precision={0} />
      </Form.Item>
    </>
  );
}

function ShelvesTab() {
  const { t } = useTranslation(['warehouse', 'common']);
  const label = useFieldLabel();
  const save = useSaveRoute(warehouseRoutes.createShelf, warehouseRoutes.updateShelf, { invalidates: warehouseReads });
  const remove = useRouteMutation(warehouseRoutes.deleteShelf, { invalidates: warehouseReads });
  const generate = useRouteMutation(warehouseRoutes.generateShelfLocations, { invalidates: warehouseReads });
  const warehouses = useWarehouseOptions();
  const [editing, setEditing] = useState<TShelf | 'new' | null>(null);
  const [generating, setGenerating] = useState<TShelf | null>(null);
  return (
    <>
      <DataTable<TShelf>
        {...routePage(warehouseRoutes.listShelves)}
        rowKey="id"
        excel={{ fileName: 'shelves' }}
        filters={<WarehouseFilter />}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="add-shelf">
            {t('common:crud.add')}
          </Button>
        }
        columns={[
          { title: t('warehouse:fields.warehouse'), dataIndex: 'warehouse_code', key: 'warehouse_code', sorter: true },
          { title: t('warehouse:fields.area'), dataIndex: 'area_code' },
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: label('category'), dataIndex: 'category', key: 'category', sorter: true },
          { title: label('layers'), dataIndex: 'layers', key: 'layers', sorter: true },
          { title: label('location_count'), dataIndex: 'location_count' },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, s) => (
              <RowActions
                name={s.code}
                onEdit={() => setEditing(s)}
                onDelete={() => remove.mutateAsync({ params: { id: s.id } })}
                extra={
                  <Button size="small" icon={<AppstoreAddOutlined />} onClick={() => setGenerating(s)}>
                    {t('warehouse:generate.button')}
                  </Button>
                }
              />
            ),
          },
        ]}
      />
      <CrudModal<TShelfForm>
        open={editing !== null}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={
          editing && editing !== 'new' ? editing : { warehouse_id: warehouses.data?.[0]?.value, layers: 1 }
        }
        onClose={() => setEditing(null)}
        onSubmit={(v) => {
          const { warehouse_id: _w, ...rest } = v;
          return editing && editing !== 'new'
            ? save.mutateAsync({ id: editing.id, body: { ...rest, area_id: rest.area_id ?? null } })
            : save.mutateAsync({ body: { ...v, area_id: v.area_id ?? null } });
        }}
      >
        {(f) => <ShelfWatch form={f} isNew={editing === 'new'} />}
      </CrudModal>
      <CrudModal<{ positions_per_layer: number; cells: number; kind: string }>
        open={generating !== null}
        title={t('warehouse:generate.title', { shelf: generating?.code ?? '' })}
        initialValues={{ positions_per_layer: 1, cells: 1, kind: 'sellable' }}
        onClose={() => setGenerating(null)}
        onSubmit={async (v) => {
          const res = await generate.mutateAsync({
            params: { id: generating!.id },
            body: { ...v, kind: v.kind as (typeof LOCATION_KIND_VALUES)[number] },
          });
          return t('warehouse:generate.done', res as { created: number; skipped: number });
        }}
      >
        {() => (
          <>
            <Typography.Paragraph type="secondary">
              {t('warehouse:generate.hint', { example: locationCode(generating?.code ?? 'A01', 1, 1) })}
            </Typography.Paragraph>
            <Form.Item
              name="positions_per_layer"
              label={label('positions_per_layer')}
              rules={[zodRule('positions_per_layer', ZGenerateLocations.shape.positions_per_layer)]}
            >
              <InputNumber min={1} max={99} precision={0} />
            </Form.Item>
            <Form.Item name="cells" label={label('cells')}>
              <InputNumber min={1} max={999} precision={0} />
            </Form.Item>
            <Form.Item name="kind" label={label('kind')}>
              <Select options={LOCATION_KIND_VALUES.map((k) => ({ value: k, label: t(`warehouse:kind.${k}`) }))} />
            </Form.Item>
          </>
        )}
      </CrudModal>
    </>
  );
}

/** The shelf form re-reads the chosen warehouse to offer its areas. */
function ShelfWatch({ form, isNew }: { form: FormInstance; isNew: boolean }) {
  const warehouseId = Form.useWatch('warehouse_id', form) as string | undefined;
  return <ShelfFields form={form} warehouseId={warehouseId} isNew={isNew} />;
}

type TLocationForm = Omit<TStorageLocation, 'id' | 'created_at' | 'updated_at' | 'pick_sequence'> & {
  pick_sequence?: number | null;
};

function LocationFields({
  form,
  isNew,
  derived,
}: {
  form: import('antd').FormInstance;
  isNew: boolean;
  /** The location's derived sequence (shown while none is set by hand). */
  derived?: number;
}) {
  const { t } = useTranslation('warehouse');
  const label = useFieldLabel();
  const warehouseId = Form.useWatch('warehouse_id', form) as string | undefined;
  const areas = useAreaOptions(warehouseId);
  const shelves = useShelfOptions(warehouseId);
  const s = ZCreateStorageLocation.shape;
  return (
    <>
      <Form.Item name="warehouse_id" label={t('fields.warehouse')} rules={[zodRule('warehouse_id', s.warehouse_id)]}>
        <WarehouseSelect disabled={!isNew} />
      </Form.Item>
      <Form.Item name="code" label={label('code')} rules={[zodRule('code', s.code)]}>
        <Input />
      </Form.Item>
      <Form.Item name="name" label={label('name')}>
        <Input />
      </Form.Item>
      <Form.Item name="area_id" label={t('fields.area')}>
        <Select allowClear options={areas.data ?? []} />
      </Form.Item>
      <Form.Item name="shelf_id" label={t('fields.shelf')}>
        <Select allowClear options={shelves.data ?? []} />
      </Form.Item>
      <Form.Item name="layer" label={label('layer')}>
        <InputNumber min={1} max={99} precision={0} />
      </Form.Item>
      <Form.Item name="cells" label={label('cells')}>
        <InputNumber min={1} max={999} precision={0} />
      </Form.Item>
      <Form.Item name="kind" label={label('kind')}>
        <Select options={LOCATION_KIND_VALUES.map((k) => ({ value: k, label: t(`kind.${k}`) }))} />
      </Form.Item>
      <Form.Item name="pick_sequence" label={label('pick_sequence')} extra={t('walk.hint')}>
        <InputNumber
          min={0}
          precision={0}
          placeholder={derived === undefined ? undefined : t('walk.derivedPlaceholder', { value: derived })}
          data-testid="location-pick-sequence"
        />
      </Form.Item>
      <Form.Item name="is_active" label={label('is_active')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </>
  );
}

/** Renumber a warehouse's walking order (the derived sequences; hand-set ones too when asked). */
function RenumberWalkButton() {
  const { t } = useTranslation(['warehouse', 'common']);
  const { message } = App.useApp();
  const warehouses = useWarehouseOptions();
  const renumber = useRouteMutation(warehouseRoutes.renumberWalk, { invalidates: warehouseReads });
  const [open, setOpen] = useState(false);
  const [warehouseId, setWarehouseId] = useState<string | undefined>();
  const [reset, setReset] = useState(false);
  const chosen = warehouseId ?? warehouses.data?.[0]?.value;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="walk-renumber">
        {t('warehouse:walk.renumber')}
      </Button>
      <Modal
        open={open}
        title={t('warehouse:walk.title')}
        okText={t('warehouse:walk.submit')}
        cancelText={t('common:actions.cancel')}
        confirmLoading={renumber.isPending}
        okButtonProps={{ disabled: !chosen }}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          if (!chosen) return;
          try {
            const r = await renumber.mutateAsync({ params: { id: chosen }, body: { reset_manual: reset } });
            void message.success(t('warehouse:walk.done', { count: r.renumbered }));
            setOpen(false);
          } catch (err) {
            void message.error(errorText(err));
          }
        }}
      >
        <Typography.Paragraph type="secondary">{t('warehouse:walk.hint')}</Typography.Paragraph>
        <Space orientation="vertical">
          <Select
            style={{ width: 240 }}
            value={chosen}
            options={warehouses.data ?? []}
            onChange={setWarehouseId}
            aria-label={t('warehouse:fields.warehouse')}
          />
          <Checkbox checked={reset} onChange={(e) => setReset(e.target.checked)}>
            {t('warehouse:walk.resetManual')}
          </Checkbox>
        </Space>
      </Modal>
    </>
  );
}

function LocationsTab() {
  const { t } = useTranslation(['warehouse', 'common']);
  const label = useFieldLabel();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const save = useSaveRoute(warehouseRoutes.createStorageLocation, warehouseRoutes.updateStorageLocation, {
    invalidates: warehouseReads,
  });
  const remove = useRouteMutation(warehouseRoutes.bulkDeleteStorageLocations, { invalidates: warehouseReads });
  const warehouses = useWarehouseOptions();
  const selection = useSelection<TStorageLocation>();
  const [editing, setEditing] = useState<TStorageLocation | 'new' | null>(null);
  const ids = [...selection.selected.keys()];
  return (
    <>
      <DataTable<TStorageLocation>
        {...routePage(warehouseRoutes.listStorageLocations)}
        rowKey="id"
        excel={{
          fileName: 'storage-locations',
          download: (query) =>
            downloadFile(warehouseRoutes.exportStorageLocations, 'storage-locations.xlsx', { query }),
        }}
        filters={
          <>
            <WarehouseFilter />
            <Form.Item name="kind">
              <Select
                allowClear
                style={{ minWidth: 140 }}
                placeholder={t('warehouse:filters.kind')}
                aria-label={label('kind')}
                options={LOCATION_KIND_VALUES.map((k) => ({ value: k, label: t(`warehouse:kind.${k}`) }))}
              />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="add-location">
              {t('common:crud.add')}
            </Button>
            <ImportButton
              start={(body) => apiCall(warehouseRoutes.importStorageLocations, { body })}
              template={{
                route: warehouseRoutes.storageLocationImportTemplate,
                fileName: 'storage-locations-template.xlsx',
              }}
              progressText={() => t('warehouse:import.importing')}
              onDone={() => void refreshWarehouse()}
            />
            <RenumberWalkButton />
            <Button
              icon={<PrinterOutlined />}
              disabled={ids.length === 0}
              onClick={() => navigate(`/rack-print/${ids.join(',')}`)}
            >
              {t('warehouse:print.labels')}
            </Button>
            <Popconfirm
              title={t('common:crud.confirmDeleteSelected', { count: ids.length })}
              okText={t('common:actions.confirm')}
              cancelText={t('common:actions.cancel')}
              disabled={ids.length === 0}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync({ body: { ids } });
                  selection.clear();
                  void message.success(t('common:crud.deleted'));
                } catch (err) {
                  void message.error(errorText(err));
                }
              }}
            >
              <Button danger icon={<DeleteOutlined />} disabled={ids.length === 0}>
                {t('common:crud.deleteSelected')}
              </Button>
            </Popconfirm>
          </>
        }
        columns={[
          selection.column,
          { title: t('warehouse:fields.warehouse'), dataIndex: 'warehouse_code', key: 'warehouse_code', sorter: true },
          { title: label('code'), dataIndex: 'code', key: 'code', sorter: true },
          { title: label('name'), dataIndex: 'name', key: 'name', sorter: true },
          { title: t('warehouse:fields.area'), dataIndex: 'area_code' },
          { title: t('warehouse:fields.shelf'), dataIndex: 'shelf_code' },
          { title: label('layer'), dataIndex: 'layer' },
          { title: label('cells'), dataIndex: 'cells', key: 'cells', sorter: true },
          {
            title: label('pick_sequence'),
            dataIndex: 'pick_sequence',
            key: 'pick_sequence',
            sorter: true,
            render: (v: number, l) => (
              <span data-testid={`walk-${l.code}`}>
                {v} {l.pick_sequence_manual ? <Tag color="blue">{t('warehouse:walk.byHand')}</Tag> : null}
              </span>
            ),
          },
          {
            title: label('kind'),
            dataIndex: 'kind',
            key: 'kind',
            sorter: true,
            render: (k: string) => t(`warehouse:kind.${k as 'sellable'}`),
          },
          {
            title: label('is_active'),
            dataIndex: 'is_active',
            render: (v: boolean) => (
              <Tag color={v ? 'green' : 'default'}>{v ? t('common:crud.yes') : t('common:crud.no')}</Tag>
            ),
          },
          {
            title: t('common:crud.actions'),
            key: 'actions',
            noExport: true,
            render: (_, l) => (
              <RowActions
                name={l.code}
                onEdit={() => setEditing(l)}
                onDelete={() => remove.mutateAsync({ body: { ids: [l.id] } })}
              />
            ),
          },
        ]}
      />
      <CrudModal<TLocationForm>
        open={editing !== null}
        width={640}
        title={editing === 'new' ? t('common:crud.add') : t('common:crud.edit')}
        initialValues={
          editing && editing !== 'new'
            ? // A derived sequence shows as the placeholder: saving leaves it derived unless a number is typed.
              { ...editing, pick_sequence: editing.pick_sequence_manual ? editing.pick_sequence : null }
            : {
                warehouse_id: warehouses.data?.[0]?.value,
                cells: 1,
                kind: 'sellable',
                is_active: true,
              }
        }
        onClose={() => setEditing(null)}
        onSubmit={(v) => {
          const { pick_sequence_manual: _m, pick_sequence: sequence, ...rest } = v;
          const body = {
            ...rest,
            area_id: v.area_id ?? null,
            shelf_id: v.shelf_id ?? null,
            layer: v.layer ?? null,
          };
          if (editing && editing !== 'new') {
            const { warehouse_id: _w, ...patch } = body;
            // Empty: the derived walk; a number: set by hand.
            return save.mutateAsync({ id: editing.id, body: { ...patch, pick_sequence: sequence ?? null } });
          }
          return save.mutateAsync({ body: sequence == null ? body : { ...body, pick_sequence: sequence } });
        }}
      >
        {(f) => (
          <LocationFields
            form={f}
            isNew={editing === 'new'}
            derived={editing && editing !== 'new' && !editing.pick_sequence_manual ? editing.pick_sequence : undefined}
          />
        )}
      </CrudModal>
    </>
  );
}

/** /subzone: areas (subzones), shelves (with one-step location generation) and storage locations of a warehouse. */
export default function SubzonePage() {
  const { t } = useTranslation('warehouse');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'areas';
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams({ tab: key }, { replace: true })}
      items={[
        { key: 'areas', label: t('tabs.areas'), children: <AreasTab /> },
        { key: 'shelves', label: t('tabs.shelves'), children: <ShelvesTab /> },
        { key: 'locations', label: t('tabs.locations'), children: <LocationsTab /> },
      ]}
    />
  );
}
