import type outbound from '../../locales/zh-TW/outbound.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    outbound: typeof outbound;
  }
}
