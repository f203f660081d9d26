import type integrations from '../../locales/zh-TW/integrations.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    integrations: typeof integrations;
  }
}
