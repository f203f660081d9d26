import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/dev-test': () => import('./pages/dev-test-page'),
});
