import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/return': () => import('./pages/return/return-page'),
  '/return-confirm': () => import('./pages/return-confirm/return-confirm-page'),
  '/return-export': () => import('./pages/return-export/return-export-page'),
  '/return-cnt': () => import('./pages/return-cnt/return-cnt-page'),
  '/return-print/:id': () => import('./pages/return-print/return-print-page'),
});
