import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Tooltip } from 'antd';
import { useThemeMode } from '../../context/theme-mode';

export function ThemeToggle() {
  const t = useTranslate();
  const { mode, toggle } = useThemeMode();
  const label = t(mode === 'dark' ? 'header.lightMode' : 'header.darkMode');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        shape="circle"
        data-testid="theme-toggle"
        aria-label={label}
        aria-pressed={mode === 'dark'}
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={toggle}
      />
    </Tooltip>
  );
}
