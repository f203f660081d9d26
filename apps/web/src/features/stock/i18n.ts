import type stock from '../../locales/zh-TW/stock.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    stock: typeof stock;
  }
}
