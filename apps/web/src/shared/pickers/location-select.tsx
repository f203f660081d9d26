import type { TLocationKind, TStorageLocation } from '@wms/contracts';
import { Select } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useDebounced, useLocations } from './api';

const label = (l: TStorageLocation) => (l.name ? `${l.code} ${l.name}` : l.code);

interface TCommon {
  warehouseId: string | undefined;
  /** Only locations of this kind. */
  kind?: TLocationKind;
  /** Leave out deactivated locations (the default). */
  activeOnly?: boolean;
  allowClear?: boolean;
  placeholder?: string;
  style?: CSSProperties;
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * Storage locations of a warehouse, searchable by code or name. Typing filters the loaded list at once (a scanner's
 * code and Enter pick the matching location) and asks the server for locations beyond the first hundred.
 */
export function LocationSelect(
  props: TCommon &
    (
      | { mode?: undefined; value?: string; onChange?: (id: string | undefined, location?: TStorageLocation) => void }
      | { mode: 'multiple'; value?: string[]; onChange?: (ids: string[]) => void }
    ),
) {
  const [search, setSearch] = useState('');
  const locations = useLocations(props.warehouseId, {
    kind: props.kind,
    activeOnly: props.activeOnly,
    search: useDebounced(search),
  });
  // Labels of locations seen before, so a chosen value keeps its label when a search no longer lists it.
  const [known, setKnown] = useState<Record<string, string>>({});
  const found = locations.data ?? [];
  const chosen = props.value === undefined ? [] : Array.isArray(props.value) ? props.value : [props.value];
  const options = [
    ...chosen.filter((id) => !found.some((l) => l.id === id)).map((id) => ({ value: id, label: known[id] ?? id })),
    ...found.map((l) => ({ value: l.id, label: label(l) })),
  ];
  const remember = (ids: string[]) =>
    setKnown((k) => ({
      ...k,
      ...Object.fromEntries(found.filter((l) => ids.includes(l.id)).map((l) => [l.id, label(l)])),
    }));
  return (
    <Select
      mode={props.mode}
      showSearch={{ optionFilterProp: 'label', onSearch: setSearch }}
      allowClear={props.allowClear}
      value={props.value}
      onChange={(v: string | string[]) => {
        const ids = Array.isArray(v) ? v : v === undefined ? [] : [v];
        remember(ids);
        if (props.mode === 'multiple') props.onChange?.(ids);
        else
          props.onChange?.(
            v as string | undefined,
            found.find((l) => l.id === v),
          );
      }}
      onBlur={() => setSearch('')}
      loading={locations.isFetching}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      style={{ minWidth: 160, ...props.style }}
      options={options}
    />
  );
}
