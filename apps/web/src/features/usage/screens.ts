import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/crm/statements': () => import('./pages/crm-statements-page'),
});
