import { Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { searchProducts } from '../api';

/** A single or combination product, searched on the server by number, name or barcode as the user types. */
export function ProductSelect(props: {
  value?: string;
  onChange?: (id: string) => void;
  initialLabel?: string;
  placeholder?: string;
  testId?: string;
}) {
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>(
    props.value && props.initialLabel ? [{ value: props.value, label: props.initialLabel }] : [],
  );
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const search = (text: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      setLoading(true);
      try {
        const found = await searchProducts(text);
        setOptions(found.map((p) => ({ value: p.id, label: `${p.number} ${p.name}` })));
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
      onFocus={() => (options.length <= 1 ? search('') : undefined)}
      onChange={(id: string) => props.onChange?.(id)}
      notFoundContent={loading ? <Spin size="small" /> : undefined}
      options={options}
      style={{ minWidth: 260 }}
      data-testid={props.testId}
    />
  );
}
