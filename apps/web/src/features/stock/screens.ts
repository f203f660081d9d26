import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/product-stock': () => import('./pages/product-stock/product-stock-page'),
  '/product-location': () => import('./pages/product-location/product-location-page'),
  '/location-stock': () => import('./pages/location-stock/location-stock-page'),
  '/stock-transfer': () => import('./pages/stock-transfer/stock-transfer-page'),
  '/stock-multi-transfer': () => import('./pages/stock-multi-transfer/stock-multi-transfer-page'),
  '/stock-expire-transfer': () => import('./pages/stock-expire-transfer/stock-expire-transfer-page'),
  '/stock-log': () => import('./pages/stock-log/stock-log-page'),
});
