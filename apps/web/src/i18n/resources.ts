import type account from '../locales/zh-TW/account.json';
import type auth from '../locales/zh-TW/auth.json';
import type common from '../locales/zh-TW/common.json';
import type crm from '../locales/zh-TW/crm.json';
import type dashboard from '../locales/zh-TW/dashboard.json';
import type devtest from '../locales/zh-TW/devtest.json';
import type manual from '../locales/zh-TW/manual.json';
import type nav from '../locales/zh-TW/nav.json';
import type shared from '../locales/zh-TW/shared.json';
import type store from '../locales/zh-TW/store.json';

/**
 * The namespaces and their keys, typed from the zh-TW files (the other languages must have the same keys:
 * locales.test.ts). A feature adds its own namespace without touching this file, by module augmentation in
 * `features/<context>/i18n.ts`:
 *
 *   import type catalog from '../../locales/zh-TW/catalog.json';
 *   declare module '../../i18n/resources' { interface TWmsResources { catalog: typeof catalog } }
 */
export interface TWmsResources {
  common: typeof common;
  nav: typeof nav;
  auth: typeof auth;
  account: typeof account;
  dashboard: typeof dashboard;
  manual: typeof manual;
  store: typeof store;
  crm: typeof crm;
  devtest: typeof devtest;
  /** Texts of the shared widgets (import dialog, receiving lines). */
  shared: typeof shared;
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: TWmsResources;
  }
}
