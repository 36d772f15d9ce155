/** admin/vite-antd-styles.ts: the URL of antd's pre-rendered component styles (null in the dev server). */
declare module 'virtual:antd-styles' {
  const url: string | null;
  export default url;
}
