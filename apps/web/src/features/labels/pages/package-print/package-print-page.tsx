import { useQuery } from '@tanstack/react-query';
import { catalogRoutes } from '@wms/contracts';
import { useSearchParams } from 'react-router';
import { apiCall } from '../../../../shared/api/client';
import { PageLoading } from '../../../../shared/ui/page-loading';
import { LabelPrintView } from '../../components/label-print-view';

/** /package-print: labels of the packaging materials (all, or `?ids=`), `?copies=` each. */
export default function PackagePrintPage() {
  const [params] = useSearchParams();
  const copies = Math.max(1, Math.min(999, Number(params.get('copies') ?? 1) || 1));
  const packaging = useQuery({
    queryKey: ['labels', 'packaging', params.get('ids')],
    queryFn: () => apiCall(catalogRoutes.listPackagingMaterials, { query: { page_size: 100 } }),
  });
  if (!packaging.data) return <PageLoading />;
  const wanted = params.get('ids')?.split(',');
  const items = packaging.data.results
    .filter((m) => !wanted || wanted.includes(m.id))
    .map((m) => ({ id: m.id, copies }));
  return <LabelPrintView request={{ kind: 'packaging', items, show_name: true }} />;
}
