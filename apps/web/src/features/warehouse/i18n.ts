import type warehouse from '../../locales/zh-TW/warehouse.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    warehouse: typeof warehouse;
  }
}
