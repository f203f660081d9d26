import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/entry': () => import('./pages/entry/entry-page'),
  '/entry-confirm': () => import('./pages/entry-confirm/entry-confirm-page'),
  '/entry-quick': () => import('./pages/entry-quick/entry-quick-page'),
  '/entry-export': () => import('./pages/entry-export/entry-export-page'),
  '/entry-cnt': () => import('./pages/entry-cnt/entry-cnt-page'),
  '/entry-print/:id': () => import('./pages/entry-print/entry-print-page'),
  '/entry-qrcode/:id': () => import('./pages/entry-qrcode/entry-qrcode-page'),
});
