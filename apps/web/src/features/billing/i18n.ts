import type billing from '../../locales/zh-TW/billing.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    billing: typeof billing;
  }
}
