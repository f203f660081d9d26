import type stocktake from '../../locales/zh-TW/stocktake.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    stocktake: typeof stocktake;
  }
}
