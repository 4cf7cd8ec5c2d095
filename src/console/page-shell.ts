/** The console's HTML shell: tabs, the token for the page's script, and the tab's bundle. */
import type { ConsolePage } from './console-mount.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Base styles shared by every tab (inline: one request fewer on first load). Long unbroken values
 * (hashes, tokens, ids) wrap anywhere and flex items may shrink below their content, so that no value
 * widens the page past a phone's 390 px window.
 */
const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#f6f7f9;--card:#fff;--line:#d0d5dc;--accent:#0a66c2;--bad:#c62828;--ok:#2e7d32;--warn:#b26a00}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--bg:#15181c;--card:#1e2227;--line:#3a4048;--accent:#5aa9ff;--bad:#ff6b6b;--ok:#6bd37a;--warn:#ffb74d}}
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:16px;align-items:center;padding:8px 16px;border-bottom:1px solid var(--line);background:var(--card)}
header h1{font-size:16px;margin:0}nav a{margin-right:12px;color:var(--accent);text-decoration:none}nav a[aria-current=page]{font-weight:700;text-decoration:underline}
main{padding:12px 16px;overflow-wrap:anywhere}section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:10px;margin-bottom:12px}
h2{font-size:15px;margin:0 0 8px}h3{font-size:14px;margin:8px 0 4px}pre{white-space:pre-wrap;word-break:break-word;font:12px ui-monospace,monospace;margin:4px 0;max-height:320px;overflow:auto}
button{font:inherit;padding:4px 10px;border-radius:4px;border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}button.primary{background:var(--accent);color:#fff;border-color:var(--accent)}
input,select,textarea{max-width:100%;font:inherit;padding:3px 6px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
.error{color:var(--bad)}.warning{color:var(--warn)}.ok{color:var(--ok)}.muted{opacity:.7}.row{display:flex;gap:12px;flex-wrap:wrap}.row>*{min-width:0;max-width:100%}.grow{flex:1;min-width:min(320px,100%)}svg{max-width:100%;height:auto}
`;

/** Renders the shell of tab `current`. */
export function renderShell(input: { title: string; token: string; pages: readonly ConsolePage[]; current: string }): string {
  const q = `token=${encodeURIComponent(input.token)}`;
  const nav = input.pages
    .map((p) => `<a href="/console?${q}&amp;tab=${p.id}"${p.id === input.current ? ' aria-current="page"' : ''} data-testid="tab-${p.id}">${escapeHtml(p.title)}</a>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><meta name="console-token" content="${escapeHtml(input.token)}"><title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(input.title)}</h1><nav>${nav}</nav><span id="live" class="muted" data-testid="live-status">connecting…</span></header>
<main id="app" data-testid="app"></main><script type="module" src="/console/assets/${input.current}.js?${q}"></script></body></html>`;
}
