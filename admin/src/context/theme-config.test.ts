import { describe, expect, it } from 'vitest';
import { renderAntdStyles } from '../../vite-antd-styles';
import { themeConfig } from './theme-config';

const SOME = ['Button', 'Table', 'Layout', 'Modal', 'Select'];
/** The cache-path map the build's stylesheet carries: the style keys cssinjs will not generate again. */
const cacheMap = (css: string) => /\.data-ant-cssinjs-cache-path\{content:"([^"]*)"/.exec(css)?.[1]?.split(';') ?? [];
const components = (entries: string[]) => entries.filter((e) => !e.includes('ant-design-icons'));

describe("the build's pre-rendered antd styles (admin/vite-antd-styles.ts)", () => {
  const built = renderAntdStyles(themeConfig('light', false), SOME);

  it("hold each component's rules and the map that makes cssinjs skip generating them", () => {
    expect(built.components).toBe(SOME.length);
    expect(built.css).toContain('.ant-btn');
    expect(built.css).toContain('.ant-table');
    expect(components(cacheMap(built.css)).length).toBeGreaterThanOrEqual(SOME.length);
  });

  it('serve the dark mode and users with animations too: their component styles have the same keys (colours live in CSS variables)', () => {
    for (const [mode, reduced] of [
      ['dark', false],
      ['light', true],
      ['dark', true],
    ] as const) {
      const other = renderAntdStyles(themeConfig(mode, reduced), SOME);
      expect(components(cacheMap(other.css)), `${mode}, reduced motion ${reduced}`).toEqual(components(cacheMap(built.css)));
    }
  });
});
