import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { LANGUAGES, type TLanguage } from '@wms/contracts';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../ui/segmented';
import { Switch } from '../ui/switch';
import { getPreferences, subscribePreferences } from './preferences';
import { useChangePreferences } from './use-change-preferences';

/**
 * Language switch (zh-TW, ja, en) and light/dark theme switch, saved in localStorage and the profile. A plain
 * segmented control and switch with antd's look (shared/ui/segmented.tsx, switch.tsx): the login page's JavaScript
 * stays small.
 */
/** `compact`: short language names, for a phone's header. */
export function PreferenceControls({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('common');
  const prefs = useSyncExternalStore(subscribePreferences, getPreferences);
  const change = useChangePreferences();
  return (
    // A flex row with Space's "middle" gap (16 px): antd's Space is not needed on the public pages.
    <div style={{ display: 'inline-flex', alignItems: 'center', gap: compact ? 8 : 16 }}>
      <Segmented<TLanguage>
        testId="language-switch"
        ariaLabel={t('language.label')}
        value={prefs.language}
        onChange={(language) => void change({ language })}
        options={LANGUAGES.map((l) => ({ value: l, label: t(compact ? `language.short.${l}` : `language.${l}`) }))}
      />
      <Switch
        testId="theme-switch"
        ariaLabel={t('theme.label')}
        title={t('theme.label')}
        checked={prefs.theme === 'dark'}
        onChange={(dark) => void change({ theme: dark ? 'dark' : 'light' })}
        checkedChildren={<MoonOutlined />}
        unCheckedChildren={<SunOutlined />}
      />
    </div>
  );
}
