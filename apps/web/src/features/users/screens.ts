import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/users': () => import('./pages/users/users-page'),
});
