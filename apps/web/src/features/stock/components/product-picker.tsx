import { useQuery } from '@tanstack/react-query';
import { catalogRoutes, type TProduct } from '@wms/contracts';
import { Select } from 'antd';
import { useState } from 'react';
import { apiCall } from '../../../shared/api/client';
import { stockKeys } from '../api';

/** Pick a single product by number, name or barcode (server search); hands the whole product on. */
export function ProductPicker(props: {
  value?: string;
  onChange?: (id: string) => void;
  onPick?: (product: TProduct) => void;
  /** Label for a value chosen earlier (edit forms). */
  known?: { value: string; label: string };
  placeholder?: string;
  allowClear?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
  style?: React.CSSProperties;
}) {
  const [search, setSearch] = useState('');
  const found = useQuery({
    queryKey: [...stockKeys.lookups, 'products', search],
    queryFn: () =>
      apiCall(catalogRoutes.listProducts, { query: { search: search || undefined, type: 'single', page_size: 25 } }),
  });
  const products = found.data?.results ?? [];
  const options = [
    ...(props.known ? [props.known] : []),
    ...products.map((p) => ({ value: p.id, label: `${p.number} ${p.name}` })),
  ].filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i);
  return (
    <Select
      showSearch
      allowClear={props.allowClear}
      value={props.value}
      filterOption={false}
      onSearch={setSearch}
      onChange={(id: string) => {
        props.onChange?.(id);
        const p = products.find((x) => x.id === id);
        if (p) props.onPick?.(p);
      }}
      loading={found.isFetching}
      options={options}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      style={{ minWidth: 240, ...props.style }}
    />
  );
}
