import { Select } from 'antd';
import { type CSSProperties, useEffect, useRef } from 'react';
import { useWarehouses } from './api';

const KEY = 'wms.stock.warehouse';

/** The warehouse the user works in, remembered in this browser (the last one picked in any warehouse select). */
export function rememberedWarehouse(): string | undefined {
  return localStorage.getItem(KEY) ?? undefined;
}

/** A warehouse of the seller ("code name"); a pick is remembered in this browser for the next `autoPick`. */
export function WarehouseSelect(props: {
  value?: string;
  onChange?: (id: string | undefined) => void;
  /** Pick the remembered (else the first) warehouse when no value is set. */
  autoPick?: boolean;
  /** Pick the seller's only warehouse, once, when no value is set (a new record; clearing it again is respected). */
  pickOnly?: boolean;
  allowClear?: boolean;
  disabled?: boolean;
  placeholder?: string;
  style?: CSSProperties;
  'aria-label'?: string;
  'data-testid'?: string;
}) {
  const warehouses = useWarehouses();
  const { value, onChange, autoPick, pickOnly } = props;
  const pickedOnly = useRef(false);
  useEffect(() => {
    if (!pickOnly || pickedOnly.current || value || warehouses.data?.length !== 1) return;
    pickedOnly.current = true;
    onChange?.(warehouses.data[0]!.id);
  }, [pickOnly, value, warehouses.data, onChange]);
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
      // Typed letters filter the list: a seller with many warehouses finds one without scrolling.
      showSearch={{ optionFilterProp: 'label' }}
      disabled={props.disabled}
      loading={warehouses.isLoading}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      style={{ minWidth: 180, ...props.style }}
      options={(warehouses.data ?? []).map((w) => ({ value: w.id, label: `${w.code} ${w.name}` }))}
    />
  );
}
