import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/product-class': () => import('./pages/product-class/product-class-page'),
  '/package': () => import('./pages/package/package-page'),
  '/product': () => import('./pages/product/product-page'),
  '/product-update': () => import('./pages/product-update/product-update-page'),
});
