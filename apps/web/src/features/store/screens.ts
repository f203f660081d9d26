import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/store/login/:short_url': () => import('./pages/member-login/member-login-page'),
  '/store/404': () => import('./pages/not-found/store-not-found-page'),
});
