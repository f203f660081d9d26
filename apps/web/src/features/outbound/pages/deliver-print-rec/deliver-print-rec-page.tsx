import { OrderDocumentsPage } from '../deliver-print-doc/deliver-print-doc-page';

/** /deliver-print-rec/{id}/{orderby}: receipts (amounts and a signature line), one per order. */
export default function ReceiptsPage() {
  return <OrderDocumentsPage kind="rec" />;
}
