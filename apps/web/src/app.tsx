import { ConfigProvider, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { loadLocale } from './shared/preferences/locale';
import { getPreferences, subscribePreferences } from './shared/preferences/preferences';
import { AppApiProvider } from './shared/ui/app-api';
import { ScanBufferProbe } from './shared/ui/scan-buffer';

/**
 * The text colour, size and font antd's App gives every page. The App's hooks come from AppApiProvider
 * (shared/ui/app-api.tsx), which loads them only for the areas that use them: /login does not load them.
 */
function BaseText({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  // antd App's link look (colour, no underline, hover) for every page, the public ones included: App itself loads
  // with the first framed area (shared/ui/app-api.tsx).
  const links = `.wms-base a{color:${token.colorLink};text-decoration:none;background-color:transparent;cursor:pointer;transition:color ${token.motionDurationSlow}}.wms-base a:hover{color:${token.colorLinkHover}}.wms-base a:active{color:${token.colorLinkActive}}`;
  return (
    <div
      className="wms-base"
      style={{
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
      }}
    >
      <style>{links}</style>
      {children}
    </div>
  );
}

/** Providers: antd (locale + light/dark theme), the router (TanStack Query: per area, shared/api/query-provider.tsx). */
export function App({ router, initialLocale }: { router: DataRouter; initialLocale: Locale }) {
  const prefs = useSyncExternalStore(subscribePreferences, getPreferences);
  const [locale, setLocale] = useState(initialLocale);

  useEffect(() => {
    let live = true;
    void loadLocale(prefs.language).then((l) => {
      if (live) setLocale(l);
    });
    return () => {
      live = false;
    };
  }, [prefs.language]);

  const dark = prefs.theme === 'dark';
  useEffect(() => {
    document.documentElement.dataset.theme = prefs.theme;
    document.documentElement.style.colorScheme = prefs.theme;
  }, [prefs.theme]);

  return (
    <ConfigProvider
      locale={locale}
      // No space forced between two CJK characters of a button (「検索」, not 「検 索」).
      button={{ autoInsertSpace: false }}
      theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: '#1677ff' } }}
    >
      <BaseText>
        <AppApiProvider>
          <RouterProvider router={router} />
          <ScanBufferProbe />
        </AppApiProvider>
      </BaseText>
    </ConfigProvider>
  );
}
