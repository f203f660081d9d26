import { useParams } from 'react-router';
import { LabelPrintView } from '../../components/label-print-view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /rack-print/{selected}: storage-location labels; `selected` is the comma-separated location ids. */
export default function RackPrintPage() {
  const { selected = '' } = useParams();
  const ids = selected.split(',').filter((id) => UUID.test(id));
  return (
    <LabelPrintView
      request={{
        kind: 'location',
        items: ids.map((id) => ({ id, copies: 1 })),
        show_name: false,
        symbology: 'code128',
      }}
    />
  );
}
