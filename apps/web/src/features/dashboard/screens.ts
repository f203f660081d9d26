import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/dashboard': () => import('./pages/dashboard/dashboard-page'),
});
