/**
 * The live arm view as an MCP App (`@modelcontextprotocol/ext-apps`): MCP Apps hosts (and the MCP
 * Inspector's web UI) render it inline next to the conversation when a robot tool is called.
 *
 * - `ui://toolwright-robot-arm/arm-view.html` (mime `text/html;profile=mcp-app`): one HTML document
 *   with the view's script inlined (bundled with esbuild on first read, then kept; a host iframe
 *   fetches nothing else, so no CDN and no extra CSP domains);
 * - `robot-arm://view/state` (JSON): what the view draws (envelope, objects, pose, the planned path
 *   of the oldest motion waiting for approval). The App reads it through the host's
 *   `resources/read` proxy, faster while the arm moves;
 * - every robot tool's `_meta.ui.resourceUri` names the App (and the legacy flat
 *   `ui/resourceUri` key, as ext-apps' `registerAppTool` writes both).
 *
 * VIEW-ONLY by design: the App has no approve, decline or e-stop. Those need the operator console's
 * token and a human at the cell; a host iframe runs next to a model-driven conversation, so nothing
 * in it may approve a motion or clear a stop. It reads state, never calls a tool.
 */
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { defineResource, type JsonObject, type Resource, type Tool } from 'toolwright';
import { bundleBrowserEntry } from 'toolwright/console';
import { isPlannedMotion, type Point } from './arm-feed.js';
import type { ArmViewState } from './arm-view-state.js';

/** The App's HTML resource. */
export const ARM_APP_URI = 'ui://toolwright-robot-arm/arm-view.html';
/** The JSON resource the App polls. */
export const ARM_VIEW_STATE_URI = 'robot-arm://view/state';
export { RESOURCE_MIME_TYPE as ARM_APP_MIME_TYPE };

/** What `robot-arm://view/state` returns. */
export interface ArmAppState extends ArmViewState {
  /** TCP path of the oldest motion waiting for an approval, or null. */
  planned: Point[] | null;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The App document: styles, the view's root, and the bundled script inline. */
export function renderArmAppHtml(script: string, title: string): string {
  // `</script` inside the bundle would end the element early; `<\/` means the same to JavaScript.
  const inline = script.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>:root{color-scheme:light dark;--fg:#1b1f24;--card:#fff;--line:#d0d5dc}@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--card:#1e2227;--line:#3a4048}}
body{margin:0;padding:8px;font:13px/1.4 system-ui,sans-serif;color:var(--fg);background:transparent}.row{display:flex;gap:8px;flex-wrap:wrap}.row svg{width:min(48vw,300px);height:auto}
.muted{opacity:.7}.error{color:#c62828;font-weight:700}.warning{color:#b26a00}.ok{color:#2e7d32}</style></head>
<body><div id="app" data-testid="arm-app">loading the arm view…</div><script type="module">${inline}</script></body></html>`;
}

/** Options of {@link armAppResources}. */
export interface ArmAppResourcesOptions {
  /** The cell now (called on every read of the state resource). */
  state: () => ArmAppState;
  /** Shown as the document title. */
  title: string;
}

/** The App's two resources (pass them to `createServer({ resources })`). */
export function armAppResources(options: ArmAppResourcesOptions): Resource[] {
  let html: Promise<string> | undefined;
  const bundle = (): Promise<string> => {
    if (html !== undefined) return html;
    const built = bundleBrowserEntry(new URL('./web/arm-app-page', import.meta.url)).then((asset) => renderArmAppHtml(asset.raw.toString('utf8'), options.title));
    // A failed bundle is not kept: the next read tries again (and reports the error again).
    built.catch(() => (html = undefined));
    html = built;
    return built;
  };
  return [
    defineResource({
      uri: ARM_APP_URI,
      name: 'arm-view',
      title: 'Live arm view',
      description: 'MCP App: top and side views of the simulated arm, its envelope, scene objects, the planned path of a motion waiting for approval and the executed trace. View only: approvals and the e-stop are at the operator console.',
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: { prefersBorder: true } },
      read: async () => ({ text: await bundle(), _meta: { ui: { prefersBorder: true } } }),
    }),
    defineResource({
      uri: ARM_VIEW_STATE_URI,
      name: 'arm-view-state',
      title: 'Arm view state',
      description: 'What the live arm view draws, as JSON: envelope, scene objects, joints and TCP (mm, base frame), gripper, moving, e-stop, and the planned TCP path of the oldest motion waiting for approval.',
      mimeType: 'application/json',
      read: () => JSON.stringify(options.state()),
    }),
  ];
}

/** The planned path of the oldest pending approval whose details are an arm motion, or null. */
export function plannedPathOf(pending: readonly { readonly details: unknown }[]): Point[] | null {
  for (const item of pending) if (isPlannedMotion(item.details)) return item.details.path;
  return null;
}

/** The same tools with `_meta.ui.resourceUri` (and the legacy flat key) naming the App. */
export function linkArmApp(tools: readonly Tool[]): Tool[] {
  return tools.map((tool) => {
    const meta: JsonObject = { ...(tool.descriptor._meta ?? {}) };
    const ui = typeof meta.ui === 'object' && meta.ui !== null && !Array.isArray(meta.ui) ? meta.ui : {};
    meta.ui = { ...ui, resourceUri: ARM_APP_URI };
    meta[RESOURCE_URI_META_KEY] = ARM_APP_URI;
    return Object.freeze({ ...tool, descriptor: Object.freeze({ ...tool.descriptor, _meta: meta }) });
  });
}
