import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { ApiError } from '../shared/api/client';

type TProps = { error: unknown; network: boolean };

/** When even the error page's code cannot be fetched (the server is down): the same texts, without antd. */
function PlainRouteError({ network }: TProps) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <h3>{network ? t('error.networkTitle') : t('error.title')}</h3>
      <p>{network ? t('error.network') : t('error.body')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('actions.retry')}
      </button>
    </div>
  );
}

// antd's Result (with its illustrations) is not part of what every page loads: it is fetched when an error shows.
const RouteErrorPage = lazy(
  (): Promise<{ default: (props: TProps) => ReactNode }> =>
    import('./route-error-page').catch(() => ({ default: PlainRouteError })),
);

/** Error boundary of the route tree: unreachable server (retry) or an unexpected failure. */
export function RouteError() {
  const error = useRouteError();
  const network = error instanceof ApiError && error.code === 'NETWORK_ERROR';
  if (!network) console.error(error);
  return (
    <Suspense fallback={null}>
      <RouteErrorPage error={error} network={network} />
    </Suspense>
  );
}
