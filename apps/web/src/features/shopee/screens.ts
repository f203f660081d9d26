import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/module-shopee-create': () => import('./pages/shopee-page'),
});
