import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/database-clean': () => import('./pages/database-clean-page'),
});
