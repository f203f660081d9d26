import { useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's filters as the address gives them (`/deliver?status=pending_export`, a dashboard tile's link): only the
 * listed keys, read once when the list opens (the form owns them afterwards). Other parameters of the address
 * (`/bug?from=`) never reach the list's query.
 */
export function useUrlFilters(keys: readonly string[] | undefined): Record<string, string> {
  const [params] = useSearchParams();
  const [initial] = useState(() => {
    const out: Record<string, string> = {};
    for (const k of keys ?? []) {
      const v = params.get(k);
      if (v) out[k] = v;
    }
    return out;
  });
  return initial;
}
