import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/deliver': () => import('./pages/deliver/deliver-page'),
  '/deliver-cnt': () => import('./pages/deliver-cnt/deliver-cnt-page'),
  '/deliver-operation': () => import('./pages/deliver-operation/deliver-operation-page'),
  '/deliver-opser': () => import('./pages/deliver-opser/deliver-opser-page'),
  '/deliver-pick': () => import('./pages/deliver-pick/deliver-pick-page'),
  '/deliver-imei': () => import('./pages/deliver-imei/deliver-imei-page'),
  '/deliver-customize-form': () => import('./pages/deliver-customize-form/deliver-customize-form-page'),
  '/deliver-export': () => import('./pages/deliver-export/deliver-export-page'),
  '/customize': () => import('./pages/customize/customize-page'),
  '/deliver-print-pick/:id': () => import('./pages/deliver-print-pick/deliver-print-pick-page'),
  '/deliver-print-pick-A4/:id': () => import('./pages/deliver-print-pick/deliver-print-pick-a4-page'),
  '/deliver-print-doc/:id/:orderby': () => import('./pages/deliver-print-doc/deliver-print-doc-page'),
  '/deliver-print-rec/:id/:orderby': () => import('./pages/deliver-print-rec/deliver-print-rec-page'),
});
