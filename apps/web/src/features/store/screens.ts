import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/store/login/:short_url': () => import('./pages/member-login/member-login-page'),
  '/store/404': () => import('./pages/not-found/store-not-found-page'),
  '/store/dashboard': () => import('./pages/store-dashboard/store-dashboard-page'),
  '/store/deliver-list': () => import('./pages/store-deliver-list/store-deliver-list-page'),
  '/store/profile': () => import('./pages/store-profile/store-profile-page'),
  '/store/password': () => import('./pages/store-password/store-password-page'),
  '/store-admin': () => import('./pages/store-admin/store-admin-page'),
  '/store-member': () => import('./pages/store-member/store-member-page'),
  '/direct-purchase': () => import('./pages/direct-purchase/direct-purchase-page'),
});
