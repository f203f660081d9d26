import { PrinterOutlined } from '@ant-design/icons';
import { crmRoutes, labelDocumentCss, labelDocumentHtml, type TCrmRackRow, type TLabelDocument } from '@wms/contracts';
import { App, Button, Form, Input, Modal, Select, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routePage, useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { DataTable } from '../../../../shared/table/data-table';
import type { TTableQuery } from '../../../../shared/table/list-query';
import { useCustomerOptions } from '../../api';

/** The label pages as a standalone document in a new window, printed from there (the CRM layout stays off paper). */
function printDocument(doc: TLabelDocument) {
  const w = window.open('', '_blank');
  if (!w) return;
  w.document.write(
    `<!doctype html><html><head><meta charset="utf-8"><style>${labelDocumentCss(doc.sheet)}</style></head><body>${labelDocumentHtml(doc)}</body></html>`,
  );
  w.document.close();
  w.focus();
  w.print();
}

/** /crm/rack: storage locations of every seller (filter by building = warehouse code), occupancy and rack labels. */
export default function CrmRackPage() {
  const { t } = useTranslation('crm');
  const { message } = App.useApp();
  const customers = useCustomerOptions();
  const labels = useRouteMutation(crmRoutes.rackLabels);
  const lastQuery = useRef<TTableQuery | null>(null);
  const [doc, setDoc] = useState<TLabelDocument | null>(null);

  const makeLabels = async () => {
    const q = (lastQuery.current ?? {}) as Record<string, string | undefined>;
    try {
      setDoc(
        await labels.mutateAsync({
          body: {
            ...(q.customer_id ? { customer_id: q.customer_id } : {}),
            ...(q.warehouse ? { warehouse: q.warehouse } : {}),
            ...(q.search ? { search: q.search } : {}),
            ...(q.state === 'empty' || q.state === 'in_use' ? { state: q.state } : {}),
          },
        }),
      );
    } catch (err) {
      void message.error(errorText(err));
    }
  };

  return (
    <>
      <DataTable<TCrmRackRow>
        {...routePage(crmRoutes.rack, {}, (q) => {
          lastQuery.current = q;
          return q;
        })}
        rowKey="id"
        searchPlaceholder={t('rack.search')}
        excel={{ fileName: 'rack' }}
        toolbar={
          <Button icon={<PrinterOutlined />} onClick={makeLabels} loading={labels.isPending} data-testid="rack-labels">
            {t('rack.labels')}
          </Button>
        }
        filters={
          <>
            <Form.Item name="warehouse">
              <Input allowClear placeholder={t('rack.warehouse')} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="customer_id">
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder={t('customer.name')}
                style={{ width: 180 }}
                options={customers.data ?? []}
              />
            </Form.Item>
            <Form.Item name="state">
              <Select
                allowClear
                placeholder={t('rack.state')}
                style={{ width: 120 }}
                options={[
                  { value: 'empty', label: t('rack.empty') },
                  { value: 'in_use', label: t('rack.inUse') },
                ]}
              />
            </Form.Item>
          </>
        }
        columns={[
          { title: t('rack.location'), dataIndex: 'code', key: 'code', sorter: true },
          { title: t('rack.warehouse'), dataIndex: 'warehouse_code', key: 'warehouse_code', sorter: true },
          { title: t('rack.shelf'), dataIndex: 'shelf_code' },
          { title: t('customer.name'), dataIndex: 'customer_name', key: 'customer_name', sorter: true },
          {
            title: t('rack.state'),
            key: 'state',
            render: (_: unknown, r) =>
              r.on_hand > 0 ? <Tag color="blue">{t('rack.inUse')}</Tag> : <Tag>{t('rack.empty')}</Tag>,
            exportValue: (r) => (r.on_hand > 0 ? t('rack.inUse') : t('rack.empty')),
          },
          { title: t('rack.units'), dataIndex: 'on_hand', key: 'on_hand', sorter: true },
          { title: t('rack.products'), dataIndex: 'products' },
          { title: t('rack.cells'), dataIndex: 'cells' },
        ]}
      />
      <Modal
        open={!!doc}
        onCancel={() => setDoc(null)}
        width={900}
        title={doc ? t('rack.labelCount', { count: doc.label_count, pages: doc.pages.length }) : null}
        okText={t('rack.print')}
        onOk={() => doc && printDocument(doc)}
        destroyOnHidden
      >
        {doc ? (
          <div style={{ maxHeight: '65vh', overflow: 'auto', background: '#888', padding: 8 }}>
            <style>{labelDocumentCss(doc.sheet)}</style>
            <div
              data-testid="label-document"
              // The markup is built by the contracts from escaped text and the server's barcode SVGs.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: generated label markup, see labelDocumentHtml
              dangerouslySetInnerHTML={{ __html: labelDocumentHtml(doc) }}
            />
          </div>
        ) : null}
      </Modal>
    </>
  );
}
