import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/api-docs': () => import('./pages/api-docs/api-docs-page'),
});
