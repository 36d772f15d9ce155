/**
 * Stands in for react-markdown and remark-gfm (admin/vite.config.ts aliases both here). Only
 * @refinedev/antd's MarkdownField imports them, and no screen shows Markdown; as CommonJS they
 * could not be tree-shaken and cost every signed-in page 138 KB of script to parse and run.
 */
export default function NoMarkdown(): null {
  return null;
}
