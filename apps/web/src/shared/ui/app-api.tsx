import AppContext, { type useAppProps } from 'antd/es/app/context';
import { type ComponentType, createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { PageLoading } from './page-loading';

// What antd's App gives `App.useApp()` before its hooks are loaded (antd's own default).
const NONE = { message: {}, notification: {}, modal: {} } as useAppProps;

type THolders = ComponentType<{ onReady: (api: useAppProps) => void }>;
let holders: THolders | null = null;
const holdersLoaded = new Set<(h: THolders) => void>();

/**
 * Load the hooks' holders (app-holders.tsx). A framed area's route calls it while its guard runs, so the hooks are
 * ready when its layout first renders. Not React.lazy: a suspended boundary would hold the layout back ≥ 300 ms
 * (React reveals content no sooner than that after it showed a fallback).
 */
export function loadAppHolders(): Promise<void> {
  return import('./app-holders').then((m) => {
    holders = m.default;
    for (const done of holdersLoaded) done(m.default);
  });
}

const Api = createContext<{ ready: boolean; want: () => void }>({ ready: false, want: () => {} });

/**
 * antd's App, in two parts: the context `App.useApp()` reads stays at the root (so a message shown before moving to
 * another area, e.g. "log in again" on the way to /login, stays up), while the message, notification and modal hooks
 * and their holders (app-holders.tsx) load only when an area that uses them first opens (withAppApi). The public
 * pages never use them, so /login does not load them.
 */
export function AppApiProvider({ children }: { children: ReactNode }) {
  const [api, setApi] = useState<useAppProps | null>(null);
  const [Holders, setHolders] = useState<THolders | null>(() => holders);
  useEffect(() => {
    const done = (h: THolders) => setHolders(() => h);
    if (holders) done(holders);
    holdersLoaded.add(done);
    return () => {
      holdersLoaded.delete(done);
    };
  }, []);
  const [state] = useState(() => ({ want: () => void loadAppHolders() }));
  return (
    <Api.Provider value={{ ready: api !== null, want: state.want }}>
      <AppContext.Provider value={api ?? NONE}>{children}</AppContext.Provider>
      {Holders ? <Holders onReady={setApi} /> : null}
    </Api.Provider>
  );
}

/** A layout whose screens use `App.useApp()`: rendered once the hooks are there (the router wraps such layouts). */
export function withAppApi(Layout: ComponentType): ComponentType {
  return function WithAppApi() {
    const { ready, want } = useContext(Api);
    useEffect(() => want(), [want]);
    return ready ? <Layout /> : <PageLoading />;
  };
}
