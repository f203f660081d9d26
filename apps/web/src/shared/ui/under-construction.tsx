import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { TScreenHandle } from '../../routes/route-table';
import { screenTitle } from '../../routes/screen-title';

/** A spec screen that a later issue builds: its translated name and a "screen under construction" note. */
export function UnderConstruction() {
  const { t } = useTranslation(['common', 'nav']);
  const handle = useMatches().at(-1)?.handle as TScreenHandle | undefined;
  const name = handle ? screenTitle(handle.screen) : '';
  return (
    <Result
      data-testid="under-construction"
      icon={<ToolOutlined />}
      title={t('common:construction.title')}
      subTitle={t('common:construction.body', { screen: name })}
    />
  );
}
