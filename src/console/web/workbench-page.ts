/** Browser entry of the workbench tab (bundled by static-assets.ts). */
import type { WorkbenchCall, WorkbenchCatalog, WorkbenchTool } from '../workbench.js';
import { api, connectLive, h, jsonBlock } from './console-client.js';
import { schemaForm } from './schema-form.js';

const app = document.getElementById('app') as HTMLElement;
const historyBody = h('tbody');
let selected: WorkbenchTool | undefined;
const detail = h('div', { class: 'grow', 'data-testid': 'tool-detail' });

function resultView(call: WorkbenchCall): HTMLElement {
  const response = call.response as { result?: Record<string, unknown>; error?: { code: number; message: string } } | undefined;
  const box = h('div', { 'data-testid': 'call-result' });
  if (response?.error !== undefined) {
    box.append(h('p', { class: 'error', 'data-testid': 'result-error' }, `JSON-RPC error ${response.error.code}: ${response.error.message}`));
  } else if (response?.result !== undefined) {
    const result = response.result;
    const isError = result.isError === true;
    box.append(h('p', { class: isError ? 'error' : 'ok', 'data-testid': 'result-iserror' }, `isError: ${String(isError)}`));
    if (result.resultType !== undefined && result.resultType !== 'complete') box.append(h('p', { class: 'warning' }, `resultType: ${String(result.resultType)} (the tool asks for input; answer it from a client)`));
    box.append(h('h3', {}, 'content'), jsonBlock(result.content ?? null, 'result-content'));
    if (result.structuredContent !== undefined) box.append(h('h3', {}, 'structuredContent'), jsonBlock(result.structuredContent, 'result-structured'));
  }
  const stages = h('ol', { 'data-testid': 'stage-list' });
  for (const s of call.stages) stages.append(h('li', { class: s.outcome === 'error' || s.outcome === 'tool-error' ? 'error' : '' }, `${s.stage}: ${s.outcome} (${s.durationMs.toFixed(2)} ms)${s.detail !== undefined ? ` - ${s.detail}` : ''}`));
  box.append(h('h3', {}, `stages (${call.durationMs} ms in all)`), call.stages.length > 0 ? stages : h('p', { class: 'muted' }, 'no stage events (the server was built without an onStageEvent hook)'));
  if (call.notifications.length > 0) box.append(h('h3', {}, 'notifications'), jsonBlock(call.notifications));
  return box;
}

function providerView(tool: WorkbenchTool): HTMLElement {
  const select = h('select', { 'data-testid': 'provider-select' });
  for (const p of tool.providers) select.append(h('option', { value: p.provider }, p.provider));
  const out = h('div');
  const render = (): void => {
    const view = tool.providers.find((p) => p.provider === select.value) ?? tool.providers[0]!;
    out.replaceChildren();
    if (view.failure !== undefined) out.append(h('p', { class: 'error' }, `cannot be sent: ${view.failure.code}: ${view.failure.message}`));
    else {
      out.append(h('p', { 'data-testid': 'tokens' }, `${view.tokens ?? 0} tokens (o200k_base estimate) · name ${view.providerName ?? ''} · strict ${String(view.strict)}`));
      if (view.strictFallback !== undefined) out.append(h('p', { class: 'warning' }, `not strict: ${view.strictFallback.join('; ')}`));
      out.append(jsonBlock(view.json, 'provider-json'));
    }
    const changed = view.loss.filter((l) => l.action !== 'kept' || l.note !== undefined);
    const table = h('table', { 'data-testid': 'loss-report' }, h('tr', {}, h('th', {}, 'pointer'), h('th', {}, 'keyword'), h('th', {}, 'action'), h('th', {}, 'note')));
    for (const l of changed) table.append(h('tr', {}, h('td', {}, l.pointer || '/'), h('td', {}, l.keyword), h('td', {}, l.action), h('td', {}, l.note ?? '')));
    out.append(h('h3', {}, `loss report (${view.loss.length} keywords, ${changed.length} not kept as is)`), changed.length > 0 ? table : h('p', { class: 'muted', 'data-testid': 'loss-report' }, 'every keyword kept'));
  };
  select.addEventListener('change', render);
  render();
  return h('section', {}, h('h2', {}, 'What the model sees'), select, out);
}

function showTool(tool: WorkbenchTool): void {
  selected = tool;
  const d = tool.descriptor;
  const findings = h('ul', { 'data-testid': 'findings' });
  for (const f of tool.findings) findings.append(h('li', { class: f.severity }, `${f.severity} ${f.ruleId} ${f.pointer}: ${f.message} (fix: ${f.fix})`));
  const argsText = h('textarea', { rows: '5', cols: '60', 'data-testid': 'args-json' });
  argsText.value = '{}';
  const form = schemaForm(d.inputSchema as Record<string, unknown>, (args) => {
    argsText.value = JSON.stringify(args, null, 2);
  });
  const result = h('div');
  const button = h('button', { class: 'primary', 'data-testid': 'call-button' }, `Call ${d.name}`);
  button.addEventListener('click', () => {
    let args: unknown;
    try {
      args = JSON.parse(argsText.value);
    } catch (error) {
      result.replaceChildren(h('p', { class: 'error', 'data-testid': 'call-failure' }, `arguments are not JSON: ${(error as Error).message}`));
      return;
    }
    button.disabled = true;
    api<WorkbenchCall>('/api/call', { tool: d.name, arguments: args }).then(
      (call) => result.replaceChildren(resultView(call)),
      (error: Error) => result.replaceChildren(h('p', { class: 'error', 'data-testid': 'call-failure' }, error.message)),
    ).finally(() => {
      button.disabled = false;
    });
  });
  detail.replaceChildren(
    h('section', {}, h('h2', {}, d.title ?? d.name), h('p', {}, d.description ?? ''), h('h3', {}, `lint findings (${tool.findings.length})`), tool.findings.length > 0 ? findings : h('p', { class: 'ok', 'data-testid': 'findings' }, 'no findings')),
    providerView(tool),
    h('section', {}, h('h2', {}, 'Call it directly'), form, h('h3', {}, 'arguments (sent as is)'), argsText, h('div', {}, button), result),
    h('section', {}, h('h2', {}, 'Input schema'), jsonBlock(d.inputSchema)),
  );
}

function addHistory(call: WorkbenchCall): void {
  const response = call.response as { result?: { isError?: boolean }; error?: { code: number } } | undefined;
  const outcome = response?.error !== undefined ? `error ${response.error.code}` : response?.result?.isError === true ? 'isError' : 'ok';
  historyBody.prepend(h('tr', {}, h('td', {}, call.startedAt.slice(11, 23)), h('td', {}, call.tool), h('td', {}, JSON.stringify(call.arguments)), h('td', { class: outcome === 'ok' ? 'ok' : 'error' }, outcome), h('td', {}, `${call.durationMs} ms`)));
  while (historyBody.children.length > 50) historyBody.lastElementChild?.remove();
}

async function start(): Promise<void> {
  const [catalog, history] = await Promise.all([api<WorkbenchCatalog>('/api/catalog'), api<WorkbenchCall[]>('/api/history')]);
  const list = h('ul', { 'data-testid': 'tool-list', style: 'list-style:none;padding:0;margin:0' });
  for (const tool of catalog.tools) {
    const counts = ['error', 'warning', 'info'].map((s) => [s, tool.findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
    const button = h('button', { 'data-testid': `tool-${tool.descriptor.name}`, style: 'width:100%;text-align:left;margin:2px 0' }, tool.descriptor.name, ' ', ...counts.map(([s, n]) => h('span', { class: s }, ` ${n} ${s}`)));
    button.addEventListener('click', () => showTool(tool));
    list.append(h('li', {}, button));
  }
  for (const call of history.slice().reverse()) addHistory(call);
  app.replaceChildren(
    h('div', { class: 'row' }, h('section', { style: 'width:260px' }, h('h2', {}, `${catalog.server.name} ${catalog.server.version}: ${catalog.tools.length} tools`), list, catalog.catalogFindings.length > 0 ? h('p', { class: 'warning' }, `${catalog.catalogFindings.length} catalog finding(s): ${catalog.catalogFindings.map((f) => f.message).join('; ')}`) : ''), detail),
    h('section', {}, h('h2', {}, 'Call history'), h('table', { 'data-testid': 'call-history' }, h('thead', {}, h('tr', {}, h('th', {}, 'time'), h('th', {}, 'tool'), h('th', {}, 'arguments'), h('th', {}, 'outcome'), h('th', {}, 'duration'))), historyBody)),
  );
  if (catalog.tools[0] !== undefined && selected === undefined) showTool(catalog.tools[0]);
  connectLive({ 'workbench-call': (data) => addHistory(data as WorkbenchCall) });
  document.body.dataset.ready = 'true';
}

start().catch((error: Error) => {
  app.replaceChildren(h('p', { class: 'error', 'data-testid': 'load-failure' }, `console failed to load: ${error.message}`));
});
