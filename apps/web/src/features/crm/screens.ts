import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/crm/dashboard': () => import('./pages/dashboard/crm-dashboard-page'),
  '/crm/customer': () => import('./pages/customer/crm-customer-page'),
  '/crm/board': () => import('./pages/board/crm-board-page'),
  '/crm/rack': () => import('./pages/rack/crm-rack-page'),
  '/crm/stock': () => import('./pages/stock/crm-stock-page'),
  '/crm/404': () => import('./pages/not-found/crm-not-found-page'),
});
