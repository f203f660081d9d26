import type { TImportRowError } from '@wms/contracts';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client';
import { useOrderLabels } from './labels';

/** The rows a refused file or list named (IMPORT_REJECTED), or nothing for any other error. */
export function rowErrorsOf(err: unknown): TImportRowError[] {
  if (err instanceof ApiError && err.code === 'IMPORT_REJECTED')
    return (err.params.errors as TImportRowError[] | undefined) ?? [];
  return [];
}

export function RowErrorsTable(props: { errors: TImportRowError[] }) {
  const { t } = useTranslation(['outbound']);
  const l = useOrderLabels();
  if (!props.errors.length) return null;
  return (
    <Table<TImportRowError>
      size="small"
      data-testid="row-errors"
      rowKey={(r) => `${r.row}-${r.field}-${r.code}-${r.message}`}
      dataSource={props.errors}
      pagination={{ pageSize: 10 }}
      columns={[
        { title: t('import.row'), dataIndex: 'row', width: 70 },
        {
          title: t('import.field'),
          dataIndex: 'field',
          width: 160,
          render: (f: string | null) => (f ? l.field(f) : ''),
        },
        { title: t('import.message'), dataIndex: 'message' },
      ]}
    />
  );
}
