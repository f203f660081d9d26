import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/login': () => import('./pages/login/login-page'),
  '/register': () => import('./pages/register/register-page'),
  '/format-password': () => import('./pages/format-password/format-password-page'),
});
