import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/express-provider': () => import('./pages/express-provider/express-provider-page'),
  '/ecommerce-channel': () => import('./pages/ecommerce-channel/ecommerce-channel-page'),
});
