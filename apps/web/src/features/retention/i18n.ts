import type retention from '../../locales/zh-TW/retention.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    retention: typeof retention;
  }
}
