import type analysis from '../../locales/zh-TW/analysis.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    analysis: typeof analysis;
  }
}
