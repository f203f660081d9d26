import { MoonOutlined, SunOutlined, TranslationOutlined } from '@ant-design/icons';
import { LANGUAGES, type TLanguage } from '@wms/contracts';
import { Select, Space, Switch, Tooltip } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getPreferences, subscribePreferences } from './preferences';
import { useChangePreferences } from './use-change-preferences';

/** Language switch (zh-TW, ja, en) and light/dark theme switch, saved in localStorage and the profile. */
export function PreferenceControls() {
  const { t } = useTranslation('common');
  const prefs = useSyncExternalStore(subscribePreferences, getPreferences);
  const change = useChangePreferences();
  return (
    <Space size="middle">
      <Select<TLanguage>
        data-testid="language-switch"
        aria-label={t('language.label')}
        value={prefs.language}
        onChange={(language) => void change({ language })}
        prefix={<TranslationOutlined />}
        style={{ minWidth: 140 }}
        options={LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
      />
      <Tooltip title={t('theme.label')}>
        <Switch
          data-testid="theme-switch"
          aria-label={t('theme.label')}
          checked={prefs.theme === 'dark'}
          onChange={(dark) => void change({ theme: dark ? 'dark' : 'light' })}
          checkedChildren={<MoonOutlined />}
          unCheckedChildren={<SunOutlined />}
        />
      </Tooltip>
    </Space>
  );
}
