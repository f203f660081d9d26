import type support from '../../locales/zh-TW/support.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    support: typeof support;
  }
}
