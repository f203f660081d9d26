import type users from '../../locales/zh-TW/users.json';

declare module '../../i18n/resources' {
  interface TWmsResources {
    users: typeof users;
  }
}
