/**
 * Vite plugin: antd's component styles rendered at build time into one stylesheet, with the
 * cache-path map @ant-design/cssinjs reads (`.data-ant-cssinjs-cache-path`). A page that has it
 * loaded before React's first render takes every listed component's style from the file instead of
 * generating and inserting it at run time: a signed-in page load then costs headless Chromium's
 * renderer 10–15 % less CPU (issue 14; docs/decisions.md). With `cssVar` the rules carry no colours,
 * so the dark mode uses the file too; what it lacks (the icons' style in the dark mode, the sider's
 * nested Menu theme) is generated as before, so the file only ever saves work.
 *
 * `virtual:antd-styles` exports the built file's URL (null in the dev server).
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import * as antd from 'antd';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { Plugin } from 'vite';

const ID = 'virtual:antd-styles';
const RESOLVED = `\0${ID}`;

type Rendered = ComponentType & { _InternalPanelDoNotUseOrYouWillBeFired?: ComponentType };

/** Every antd component (or those in `only`) rendered once, its popup panel where it has one, under `theme`: the styles as CSS text. */
export function renderAntdStyles(theme: antd.ConfigProviderProps['theme'], only?: readonly string[]): { css: string; components: number } {
  const cache = createCache();
  let components = 0;
  for (const [name, exported] of Object.entries(antd as unknown as Record<string, Rendered | undefined>)) {
    if (!/^[A-Z]/.test(name) || name === 'ConfigProvider' || !exported || (typeof exported !== 'function' && typeof exported !== 'object'))
      continue;
    if (only && !only.includes(name)) continue;
    const component = exported._InternalPanelDoNotUseOrYouWillBeFired ?? exported;
    try {
      renderToString(createElement(StyleProvider, { cache }, createElement(antd.ConfigProvider, { theme }, createElement(component))));
      components++;
    } catch {
      // a component that cannot render without props (none in antd 5.29) keeps its run-time styles
    }
  }
  // Component styles only: the theme's CSS variables are registered at run time under the page's own key.
  return { css: extractStyle(cache, { plain: true, types: ['style'] }), components };
}

export function antdStyles(theme: antd.ConfigProviderProps['theme']): Plugin {
  let build = false;
  let ref = '';
  return {
    name: 'antd-styles',
    configResolved(config) {
      build = config.command === 'build';
    },
    buildStart() {
      if (!build) return;
      ref = this.emitFile({ type: 'asset', name: 'antd.css', source: renderAntdStyles(theme).css });
    },
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      return build ? `export default import.meta.ROLLUP_FILE_URL_${ref};` : 'export default null;';
    },
  };
}
