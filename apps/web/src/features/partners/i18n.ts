import type partners from '../../locales/zh-TW/partners.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    partners: typeof partners;
  }
}
