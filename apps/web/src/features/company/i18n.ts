import type company from '../../locales/zh-TW/company.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    company: typeof company;
  }
}
