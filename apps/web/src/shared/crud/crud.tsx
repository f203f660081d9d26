import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, type FormInstance, Modal, Popconfirm, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../forms/error-text';
import { useFormErrors } from '../forms/use-form-errors';
import type { TDataColumn } from '../table/data-table';

/**
 * The create/edit dialog of the settings screens (warehouse, catalog, users, partners, store, integrations): an antd form whose server errors land under their field
 * (`params.field`) or above the form.
 */
export function CrudModal<V extends object>(props: {
  open: boolean;
  title: string;
  initialValues?: Partial<V>;
  onClose: () => void;
  /** Resolves with the success message to show instead of "saved" (one toast, not two). */
  onSubmit: (values: V) => Promise<unknown>;
  children: (form: FormInstance<V>) => ReactNode;
  width?: number;
}) {
  const { t } = useTranslation(['common']);
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const [saving, setSaving] = useState(false);
  const { showError, clearError, formError } = useFormErrors(form);
  const submit = async () => {
    clearError();
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const done = await props.onSubmit(values);
      void message.success(typeof done === 'string' ? done : t('common:messages.saved'));
      props.onClose();
    } catch (err) {
      showError(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      width={props.width ?? 560}
    >
      {formError}
      <Form<V>
        form={form}
        layout="vertical"
        initialValues={props.initialValues}
        preserve={false}
        onFinish={() => void submit()}
        data-testid="crud-form"
      >
        {props.children(form)}
      </Form>
    </Modal>
  );
}

/** Edit and delete buttons of a row; delete asks for confirmation and shows the server's reason (e.g. IN_USE). */
export function RowActions(props: {
  name: string;
  onEdit?: () => void;
  onDelete?: () => Promise<unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  return (
    <Space size="small">
      {props.extra}
      {props.onEdit ? (
        <Button size="small" icon={<EditOutlined />} onClick={props.onEdit} aria-label={t('crud.edit')}>
          {t('crud.edit')}
        </Button>
      ) : null}
      {props.onDelete ? (
        <Popconfirm
          title={t('crud.confirmDelete', { name: props.name })}
          okText={t('actions.confirm')}
          cancelText={t('actions.cancel')}
          onConfirm={async () => {
            try {
              await props.onDelete?.();
              void message.success(t('crud.deleted'));
            } catch (err) {
              void message.error(errorText(err));
            }
          }}
        >
          <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('crud.delete')}>
            {t('crud.delete')}
          </Button>
        </Popconfirm>
      ) : null}
    </Space>
  );
}

/** Row selection kept by id across pages (DataTable pages on the server), as a checkbox column. */
export function useSelection<T extends { id: string }>() {
  const [selected, setSelected] = useState<Map<string, T>>(new Map());
  const { t } = useTranslation('common');
  const column: TDataColumn<T> = {
    key: '__select',
    title: t('crud.select'),
    noExport: true,
    width: 64,
    render: (_: unknown, row: T) => (
      <Checkbox
        aria-label={t('crud.select')}
        checked={selected.has(row.id)}
        onChange={(e) =>
          setSelected((prev) => {
            const next = new Map(prev);
            if (e.target.checked) next.set(row.id, row);
            else next.delete(row.id);
            return next;
          })
        }
      />
    ),
  };
  return { selected, column, clear: () => setSelected(new Map()), setSelected };
}

/** Invalidate a feature's queries after a write. */
export function useInvalidate() {
  const qc = useQueryClient();
  return (key: readonly unknown[]) => qc.invalidateQueries({ queryKey: key });
}
