import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/change-password': () => import('./pages/change-password/change-password-page'),
  '/profile': () => import('./pages/profile/profile-page'),
  '/two-factor': () => import('./pages/two-factor/two-factor-page'),
});
