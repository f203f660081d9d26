import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/corporation': () => import('./pages/corporation/corporation-page'),
});
