import type catalog from '../../locales/zh-TW/catalog.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    catalog: typeof catalog;
  }
}
