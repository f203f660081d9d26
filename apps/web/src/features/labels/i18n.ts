import type labels from '../../locales/zh-TW/labels.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    labels: typeof labels;
  }
}
