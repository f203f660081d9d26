import { Select } from 'antd';
import { useLocations } from '../api';

/** Active storage locations of a warehouse (optionally of one kind), searchable by code. */
export function LocationSelect(props: {
  warehouseId: string | undefined;
  kind?: 'sellable' | 'defective' | 'expired' | 'staging';
  value?: string;
  onChange?: (id: string) => void;
  placeholder?: string;
  'aria-label'?: string;
  'data-testid'?: string;
  style?: React.CSSProperties;
}) {
  const locations = useLocations(props.warehouseId, props.kind);
  return (
    <Select
      showSearch
      optionFilterProp="label"
      value={props.value}
      onChange={props.onChange}
      loading={locations.isLoading}
      placeholder={props.placeholder}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      style={{ minWidth: 160, ...props.style }}
      options={(locations.data ?? []).map((l) => ({ value: l.id, label: l.code }))}
    />
  );
}
