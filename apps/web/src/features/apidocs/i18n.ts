import type apidocs from '../../locales/zh-TW/apidocs.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    apidocs: typeof apidocs;
  }
}
