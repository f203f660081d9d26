import type inbound from '../../locales/zh-TW/inbound.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    inbound: typeof inbound;
  }
}
