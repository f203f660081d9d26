import { Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { searchProducts } from '../api';

/** A single product, searched on the server by number, name or barcode as the user types. */
export function ProductSelect(props: {
  value?: string;
  onChange?: (id: string, product?: { shelf_life_months: number | null }) => void;
  initialLabel?: string;
  placeholder?: string;
  testId?: string;
}) {
  const [options, setOptions] = useState<Array<{ value: string; label: string; shelf: number | null }>>(
    props.value && props.initialLabel ? [{ value: props.value, label: props.initialLabel, shelf: null }] : [],
  );
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const search = (text: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      setLoading(true);
      try {
        const found = await searchProducts(text);
        setOptions(found.map((p) => ({ value: p.id, label: `${p.number} ${p.name}`, shelf: p.shelf_life_months })));
      } finally {
        setLoading(false);
      }
    }, 250);
  };
  useEffect(() => () => (timer.current ? clearTimeout(timer.current) : undefined), []);
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: search }}
      value={props.value}
      placeholder={props.placeholder}
      onFocus={() => (options.length === 0 ? search('') : undefined)}
      onChange={(id: string) =>
        props.onChange?.(id, { shelf_life_months: options.find((o) => o.value === id)?.shelf ?? null })
      }
      notFoundContent={loading ? <Spin size="small" /> : undefined}
      options={options.map((o) => ({ value: o.value, label: o.label }))}
      style={{ minWidth: 260 }}
      data-testid={props.testId}
    />
  );
}
