import type { TImportRowError } from '@wms/contracts';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useFieldLabel } from '../forms/field-label';

/** The rows a refused file or list named (an ApiError IMPORT_REJECTED), or nothing for any other error. */
export function rowErrorsOf(err: unknown): TImportRowError[] {
  if (err instanceof ApiError && err.code === 'IMPORT_REJECTED')
    return (err.params.errors as TImportRowError[] | undefined) ?? [];
  return [];
}

/** Row, field and message of each refused row; fields are named in the user's language (the contracts' labels). */
export function RowErrorsTable(props: {
  errors: TImportRowError[];
  /** How a field is named; the contracts' FIELD_LABELS by default. */
  fieldLabel?: (field: string) => string;
  'data-testid'?: string;
}) {
  const { t } = useTranslation('shared');
  const defaultLabel = useFieldLabel();
  const label = props.fieldLabel ?? defaultLabel;
  if (!props.errors.length) return null;
  return (
    <Table<TImportRowError>
      size="small"
      data-testid={props['data-testid'] ?? 'row-errors'}
      rowKey={(r) => `${r.row}-${r.field}-${r.code}-${r.message}`}
      dataSource={props.errors}
      pagination={{ pageSize: 10 }}
      columns={[
        { title: t('import.row'), dataIndex: 'row', width: 70 },
        {
          title: t('import.field'),
          dataIndex: 'field',
          width: 160,
          render: (f: string | null) => (f ? label(f) : ''),
        },
        { title: t('import.message'), dataIndex: 'message' },
      ]}
    />
  );
}
