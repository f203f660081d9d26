import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/privacy': () => import('./pages/privacy-page'),
  '/service-rule': () => import('./pages/service-rule-page'),
});
