import type { TProduct } from '@wms/contracts';
import { Select, Spin } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useDebounced, useProductSearch } from './api';

/** `search` is what typing filters at once: number, name and barcode, as the server searches them. */
type TOption = { value: string; label: string; search: string };

const label = (p: TProduct) => `${p.number} ${p.name}`;

interface TCommon {
  /** Only single products (not combinations). */
  type?: 'single';
  /** Only active products. */
  status?: 'active';
  /** Labels of values chosen earlier (edit forms), shown before the first search; incomplete entries are skipped. */
  known?: Array<{ value?: string | null; label?: string | null }>;
  allowClear?: boolean;
  placeholder?: string;
  style?: CSSProperties;
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * A product searched on the server by number, name or barcode as the user types (the first list loads when the
 * select is first opened; the list on screen is filtered at once meanwhile); hands the chosen product on with its id.
 */
export function ProductSelect(
  props: TCommon &
    (
      | { mode?: undefined; value?: string; onChange?: (id: string | undefined, product?: TProduct) => void }
      | { mode: 'multiple'; value?: string[]; onChange?: (ids: string[]) => void }
    ),
) {
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const q = { search: useDebounced(search), type: props.type, status: props.status };
  const found = useProductSearch(q, opened || q.search !== '');
  // Labels of products seen before, so chosen values keep their labels when a search no longer lists them.
  const [seen, setSeen] = useState<Record<string, string>>({});
  const products = found.data ?? [];
  const known: Record<string, string> = {
    ...Object.fromEntries((props.known ?? []).flatMap((o) => (o.value && o.label ? [[o.value, o.label]] : []))),
    ...seen,
  };
  const chosen = props.value === undefined ? [] : Array.isArray(props.value) ? props.value : [props.value];
  const options: TOption[] = [
    ...chosen
      .filter((id) => !products.some((p) => p.id === id))
      .map((id) => ({ value: id, label: known[id] ?? id, search: known[id] ?? id })),
    ...products.map((p) => ({ value: p.id, label: label(p), search: `${label(p)} ${p.barcode ?? ''}` })),
  ];
  return (
    <Select
      mode={props.mode}
      // The last list is filtered at once while the server's answer to the new search is on its way.
      showSearch={{ optionFilterProp: 'search', onSearch: setSearch }}
      allowClear={props.allowClear}
      value={props.value}
      onOpenChange={(open) => (open ? setOpened(true) : undefined)}
      onFocus={() => setOpened(true)}
      onChange={(v: string | string[] | undefined) => {
        const ids = Array.isArray(v) ? v : v === undefined ? [] : [v];
        const picked = products.filter((p) => ids.includes(p.id));
        setSeen((s) => ({ ...s, ...Object.fromEntries(picked.map((p) => [p.id, label(p)])) }));
        if (props.mode === 'multiple') props.onChange?.(ids);
        else
          props.onChange?.(
            v as string | undefined,
            picked.find((p) => p.id === v),
          );
      }}
      notFoundContent={found.isFetching ? <Spin size="small" /> : undefined}
      loading={found.isFetching}
      options={options}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      style={{ minWidth: 260, ...props.style }}
    />
  );
}
