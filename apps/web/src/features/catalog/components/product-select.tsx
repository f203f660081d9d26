import { Select } from 'antd';
import { useState } from 'react';
import { useProductSearch } from '../api';

/** Pick a product by number, name or barcode (server search); `known` labels values that are already chosen. */
export function ProductSelect(props: {
  value?: string;
  onChange?: (v: string) => void;
  type?: 'single';
  known?: Array<{ value: string; label: string }>;
  placeholder?: string;
  'aria-label'?: string;
}) {
  const [search, setSearch] = useState('');
  const found = useProductSearch(search, props.type);
  const options = [
    ...(props.known ?? []),
    ...(found.data?.results ?? []).map((p) => ({ value: p.id, label: `${p.number} ${p.name}` })),
  ].filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i);
  return (
    <Select
      showSearch
      value={props.value}
      onChange={props.onChange}
      filterOption={false}
      onSearch={setSearch}
      loading={found.isFetching}
      options={options}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      style={{ minWidth: 260 }}
    />
  );
}
