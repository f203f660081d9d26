import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { LANGUAGES, type TLanguage } from '@wms/contracts';
import { Segmented, Switch } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getPreferences, subscribePreferences } from './preferences';
import { useChangePreferences } from './use-change-preferences';

/**
 * Language switch (zh-TW, ja, en) and light/dark theme switch, saved in localStorage and the profile. Segmented and
 * Switch need no popup machinery, which keeps the login page's JavaScript small.
 */
export function PreferenceControls() {
  const { t } = useTranslation('common');
  const prefs = useSyncExternalStore(subscribePreferences, getPreferences);
  const change = useChangePreferences();
  return (
    // A flex row with Space's "middle" gap (16 px): antd's Space is not needed on the public pages.
    <div style={{ display: 'inline-flex', alignItems: 'center', gap: 16 }}>
      <Segmented<TLanguage>
        data-testid="language-switch"
        aria-label={t('language.label')}
        size="small"
        value={prefs.language}
        onChange={(language) => void change({ language })}
        options={LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
      />
      <Switch
        data-testid="theme-switch"
        aria-label={t('theme.label')}
        title={t('theme.label')}
        checked={prefs.theme === 'dark'}
        onChange={(dark) => void change({ theme: dark ? 'dark' : 'light' })}
        checkedChildren={<MoonOutlined />}
        unCheckedChildren={<SunOutlined />}
      />
    </div>
  );
}
