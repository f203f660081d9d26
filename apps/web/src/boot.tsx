import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app';
import { initI18n } from './i18n/i18n';
import './i18n/resources';
import { createAppRoutes } from './routes/router';
import { SCREENS } from './routes/screens';
import './shared/auth/session';
import { loadLocale } from './shared/preferences/locale';
import { getLanguage } from './shared/preferences/preferences';
import { startPwa } from './shared/pwa/pwa';
import './styles.css';

/** Start the app (main.tsx). */
export async function start(): Promise<void> {
  startPwa();
  const [, locale] = await Promise.all([initI18n(), loadLocale(getLanguage())]);
  const router = createBrowserRouter(createAppRoutes(SCREENS));
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App router={router} initialLocale={locale} />
    </StrictMode>,
  );
}
