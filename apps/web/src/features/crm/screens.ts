import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/crm/404': () => import('./pages/not-found/crm-not-found-page'),
});
