import { DownOutlined } from '@ant-design/icons';
import { useGetLocale, useSetLocale, useTranslate } from '@refinedev/core';
import { Button, Dropdown, type MenuProps } from 'antd';
import { LANGUAGES, type LanguageCode } from '../../providers';
import { FLAGS } from './flags';

/** vi first (default and fallback), then en; each with its flag (001 §9). */
export function LanguageSwitcher() {
  const t = useTranslate();
  const locale = useGetLocale();
  const changeLanguage = useSetLocale();
  const current: LanguageCode = locale() === 'en' ? 'en' : 'vi';
  const CurrentFlag = FLAGS[current];

  const items: MenuProps['items'] = LANGUAGES.map(({ code, name }) => {
    const Flag = FLAGS[code];
    return { key: code, icon: <Flag />, label: <span lang={code}>{name}</span> };
  });

  return (
    <Dropdown trigger={['click']} menu={{ items, selectable: true, selectedKeys: [current], onClick: ({ key }) => changeLanguage(key) }}>
      <Button type="text" data-testid="language-switcher" aria-label={t('header.language')} className="header-button">
        <CurrentFlag />
        <span className="language-code">{current.toUpperCase()}</span>
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
