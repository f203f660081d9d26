import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/user-help': () => import('./pages/user-help-page'),
  '/bug': () => import('./pages/bug-page'),
  '/request': () => import('./pages/request-page'),
});
