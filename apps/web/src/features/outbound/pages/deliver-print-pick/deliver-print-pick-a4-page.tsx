import { PickListPage } from './deliver-print-pick-page';

/** /deliver-print-pick-A4/{id}: the pick list on A4. */
export default function PickListA4Page() {
  return <PickListPage paper="A4" />;
}
