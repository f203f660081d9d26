import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/inventory': () => import('./pages/inventory/inventory-page'),
});
