import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/billing': () => import('./pages/billing-page'),
  '/tappay': () => import('./pages/tappay-page'),
  '/wait-tappay': () => import('./pages/wait-payment-page'),
  '/newebpay': () => import('./pages/newebpay-page'),
  '/wait-newebpay': () => import('./pages/wait-payment-page'),
});
