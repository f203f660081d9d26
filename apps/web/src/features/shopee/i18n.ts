import type shopee from '../../locales/zh-TW/shopee.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    shopee: typeof shopee;
  }
}
