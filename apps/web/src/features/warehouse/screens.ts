import { defineScreens } from '../../routes/screens';

export default defineScreens({
  '/warehouse': () => import('./pages/warehouse/warehouse-page'),
  '/subzone': () => import('./pages/subzone/subzone-page'),
  '/ships-today': () => import('./pages/ships-today/ships-today-page'),
  '/ships-handover': () => import('./pages/ships-today/handover-page'),
  '/release-channels': () => import('./pages/ships-today/release-channels-page'),
  '/ships-manifest-print/:id': () => import('./pages/ships-today/manifest-print-page'),
});
