import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/404': () => import('./pages/not-found-page'),
});
