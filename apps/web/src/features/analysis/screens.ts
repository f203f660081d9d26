import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/purchase-advice': () => import('./pages/purchase-advice/purchase-advice-page'),
  '/deliver-statistics': () => import('./pages/deliver-statistics/deliver-statistics-page'),
  '/product-turnover': () => import('./pages/product-turnover/product-turnover-page'),
  '/stock-age': () => import('./pages/stock-age/stock-age-page'),
});
