import AppContext, { type useAppProps } from 'antd/es/app/context';
import {
  type ComponentType,
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useContext,
  useEffect,
  useState,
} from 'react';
import { PageLoading } from './page-loading';

// What antd's App gives `App.useApp()` before its hooks are loaded (antd's own default).
const NONE = { message: {}, notification: {}, modal: {} } as useAppProps;

const Holders = lazy(() => import('./app-holders'));
const Api = createContext<{ ready: boolean; want: () => void }>({ ready: false, want: () => {} });

/**
 * antd's App, in two parts: the context `App.useApp()` reads stays at the root (so a message shown before moving to
 * another area, e.g. "log in again" on the way to /login, stays up), while the message, notification and modal hooks
 * and their holders (app-holders.tsx) load only when an area that uses them first opens (withAppApi). The public
 * pages never use them, so /login does not load them.
 */
export function AppApiProvider({ children }: { children: ReactNode }) {
  const [api, setApi] = useState<useAppProps | null>(null);
  const [wanted, setWanted] = useState(false);
  const [state] = useState(() => ({ want: () => setWanted(true) }));
  return (
    <Api.Provider value={{ ready: api !== null, want: state.want }}>
      <AppContext.Provider value={api ?? NONE}>{children}</AppContext.Provider>
      {wanted ? (
        <Suspense fallback={null}>
          <Holders onReady={setApi} />
        </Suspense>
      ) : null}
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
