import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/module-api-setup': () => import('./pages/api-setting/api-setting-page'),
  '/gd-api-setup': () => import('./pages/connection/connection-page'),
  '/gd-api-callback': () => import('./pages/callback/callback-page'),
  '/partner-api-docs': () => import('./pages/partner-api-docs/partner-api-docs-page'),
});
