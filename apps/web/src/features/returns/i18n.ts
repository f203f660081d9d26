import type returns from '../../locales/zh-TW/returns.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    returns: typeof returns;
  }
}
