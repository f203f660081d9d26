import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/product-print': () => import('./pages/product-print/product-print-page'),
  '/product-print-preview/:data': () => import('./pages/product-print-preview/product-print-preview-page'),
  '/rack-print/:selected': () => import('./pages/rack-print/rack-print-page'),
  '/package-print': () => import('./pages/package-print/package-print-page'),
});
