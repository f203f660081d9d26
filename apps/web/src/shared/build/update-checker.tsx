import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { BUILD_CHECK_INTERVAL_MS, fetchServerBuildId, isOutdated, MY_BUILD_ID } from './build-check';

const UpdateDialog = lazy(async () => ({ default: (await import('./update-dialog')).UpdateDialog }));

/** Spec §1: when the server runs a newer build, show 'system needs update'; checked periodically and on navigation. */
export function UpdateChecker() {
  const { pathname } = useLocation();
  const [outdated, setOutdated] = useState(false);
  const inflight = useRef(false);

  const check = useCallback(async () => {
    if (inflight.current || MY_BUILD_ID === 'dev') return;
    inflight.current = true;
    try {
      if (isOutdated(await fetchServerBuildId(), MY_BUILD_ID)) setOutdated(true);
    } finally {
      inflight.current = false;
    }
  }, []);

  useEffect(() => {
    const timer = setInterval(() => void check(), BUILD_CHECK_INTERVAL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [check]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation (pathname change) is the trigger.
  useEffect(() => {
    void check();
  }, [pathname, check]);

  if (!outdated) return null;
  return (
    <Suspense fallback={null}>
      <UpdateDialog />
    </Suspense>
  );
}
