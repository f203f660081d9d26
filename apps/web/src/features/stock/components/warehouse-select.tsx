import { Select } from 'antd';
import { useEffect } from 'react';
import { useWarehouses } from '../api';

const KEY = 'wms.stock.warehouse';

/** The warehouse the user works in, remembered in this browser; the first warehouse when none was chosen. */
export function rememberedWarehouse(): string | undefined {
  return localStorage.getItem(KEY) ?? undefined;
}

export function WarehouseSelect(props: {
  value?: string;
  onChange?: (id: string | undefined) => void;
  /** Pick the remembered (or the only) warehouse when no value is set. */
  autoPick?: boolean;
  allowClear?: boolean;
  placeholder?: string;
  'aria-label'?: string;
  'data-testid'?: string;
}) {
  const warehouses = useWarehouses();
  const { value, onChange, autoPick } = props;
  useEffect(() => {
    if (!autoPick || value || !warehouses.data?.length) return;
    const remembered = rememberedWarehouse();
    const pick = warehouses.data.find((w) => w.id === remembered) ?? warehouses.data[0];
    if (pick) onChange?.(pick.id);
  }, [autoPick, value, warehouses.data, onChange]);
  return (
    <Select
      value={value}
      onChange={(id: string | undefined) => {
        if (id) localStorage.setItem(KEY, id);
        onChange?.(id);
      }}
      allowClear={props.allowClear}
      loading={warehouses.isLoading}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      style={{ minWidth: 180 }}
      options={(warehouses.data ?? []).map((w) => ({ value: w.id, label: `${w.code} ${w.name}` }))}
    />
  );
}
