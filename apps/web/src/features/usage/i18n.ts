import type usage from '../../locales/zh-TW/usage.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    usage: typeof usage;
  }
}
