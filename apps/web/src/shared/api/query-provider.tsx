import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from './query-client';

/**
 * TanStack Query's provider (the one shared client) around an area's layout or a public page that uses it. It is not
 * at the root, so the login page, which does not use it, does not load TanStack Query.
 */
export function withQueryClient<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  return function WithQueryClient(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Inner {...props} />
      </QueryClientProvider>
    );
  };
}
