/**
 * A mounted catalog whose tools change after start (server/catalog/remount.ts): the front reads them again
 * on the mount's `tools` list_changed, serves the new list, and leaves out (reported, never thrown)
 * each tool that cannot join a running server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, McpClientError } from '../../src/client/index.js';
import { createServer, defineTool } from '../../src/index.js';
import type { ListChangedKind, MountableCatalog, MountOption, MountRefusal, Tool } from '../../src/index.js';
import { until } from '../support/until.js';

const echo = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}): Tool =>
  defineTool({ name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, run: () => `I am ${name}`, ...extra } as Parameters<typeof defineTool>[0]) as Tool;

/** A catalog the test changes: `set(tools)` replaces its tools and announces the change. */
function changing(initial: Tool[]): MountableCatalog & { set(tools: Tool[]): void } {
  let tools = initial;
  const listeners = new Set<(kind: ListChangedKind) => void>();
  return {
    get tools() { return tools; },
    resources: [], prompts: [], listChanged: ['tools'],
    onListChanged(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set(next) {
      tools = next;
      for (const listener of listeners) listener('tools');
    },
  };
}

function mountOf(catalog: MountableCatalog, refusals: MountRefusal[] | undefined, extra: Partial<MountOption> = {}): MountOption {
  return { prefix: 'dyn', server: { name: 'dyn', mountable: catalog }, minChangeIntervalMs: 0, ...(refusals !== undefined ? { onRefused: (r: MountRefusal) => void refusals.push(r) } : {}), ...extra };
}

describe('mount: a mounted tool list that changes after start', () => {
  it('serves the new list at once, in mount order after the front\'s own tools; a removed tool is unknown', async () => {
    const catalog = changing([echo('alpha'), echo('beta')]);
    const front = createServer({ name: 'front', version: '1.0.0', tools: [echo('own')], mount: [mountOf(catalog, [])] });
    const listener = await front.listen({ port: 0 });
    const caller = connect(listener.url, { onWarning: () => {} });
    try {
      assert.deepEqual(front.tools.map((t) => t.name), ['own', 'dyn__alpha', 'dyn__beta']);
      catalog.set([echo('beta'), echo('gamma')]);
      assert.deepEqual(front.tools.map((t) => t.name), ['own', 'dyn__beta', 'dyn__gamma']);
      assert.deepEqual(front.mountable.tools.map((t) => t.name), ['own', 'dyn__beta', 'dyn__gamma'], 'a server mounting this one sees the change');
      const listed = ((await caller.request('tools/list')).tools as { name: string }[]).map((t) => t.name);
      assert.deepEqual(listed, ['own', 'dyn__beta', 'dyn__gamma']);
      assert.deepEqual((await caller.callTool('dyn__gamma', {})).content, [{ type: 'text', text: 'I am gamma' }]);
      const gone = await caller.callTool('dyn__alpha', {}).then(() => undefined, (e: unknown) => e);
      assert.ok(gone instanceof McpClientError);
      assert.equal(gone.code, -32602);
      assert.equal(gone.serverMessage, 'Unknown tool: dyn__alpha');
    } finally {
      await caller.close();
      await listener.close();
      await front.close();
    }
  });

  it('a tool still listed after a change is the same tool on the front (its compiled validators kept, not built again)', async () => {
    const beta = echo('beta');
    const catalog = changing([echo('alpha'), beta]);
    const front = createServer({ name: 'front', version: '1.0.0', tools: [], mount: [mountOf(catalog, [])] });
    try {
      const before = front.mountable.tools.find((t) => t.name === 'dyn__beta');
      assert.equal(front.mountable.tools, front.mountable.tools, 'read twice, the same list');
      catalog.set([beta, echo('gamma')]);
      assert.deepEqual(front.tools.map((t) => t.name), ['dyn__beta', 'dyn__gamma']);
      assert.equal(front.mountable.tools.find((t) => t.name === 'dyn__beta'), before);
    } finally {
      await front.close();
    }
  });

  it('leaves out, and reports, each new tool that cannot join; the rest of the list is served', async () => {
    const catalog = changing([echo('alpha')]);
    const refusals: MountRefusal[] = [];
    const front = createServer({ name: 'front', version: '1.0.0', tools: [echo('dyn__taken')], mount: [mountOf(catalog, refusals)], logger: { error: () => undefined } });
    try {
      catalog.set([
        echo('alpha'),
        echo('taken'),
        echo('tasked', { task: true }),
        echo('hidden', { visibleTo: () => false }),
        echo('n'.repeat(126)),
        echo('fine'),
      ]);
      assert.deepEqual(front.tools.map((t) => t.name), ['dyn__taken', 'dyn__alpha', 'dyn__fine']);
      assert.deepEqual(refusals, [
        { tool: 'dyn__taken', reason: 'the name is already served by this server' },
        { tool: `dyn__${'n'.repeat(126)}`, reason: 'the name breaks the tool-name rule (1 to 128 of A-Z a-z 0-9 _ . -)' },
        { tool: 'dyn__tasked', reason: 'it runs as a task, and this server did not declare the tasks extension at start' },
        { tool: 'dyn__hidden', reason: 'it has a visibleTo that no tool had at start (per-caller tool lists are keyed on those)' },
      ]);
    } finally {
      await front.close();
    }
  });

  it('a transform that throws at a change leaves that mount\'s tools out, logged when there is no onRefused; the front keeps serving', async () => {
    const catalog = changing([echo('alpha')]);
    const logged: { message: string; detail: unknown }[] = [];
    let fail = false;
    const transform = (tools: readonly Tool[]): readonly Tool[] => {
      if (fail) throw new Error('transform broke');
      return tools;
    };
    const front = createServer({ name: 'front', version: '1.0.0', tools: [echo('own')], mount: [mountOf(catalog, undefined, { transform })], logger: { error: (message, detail) => void logged.push({ message, detail }) } });
    const listener = await front.listen({ port: 0 });
    const caller = connect(listener.url, { onWarning: () => {} });
    try {
      fail = true;
      catalog.set([echo('alpha'), echo('beta')]);
      assert.deepEqual(front.tools.map((t) => t.name), ['own']);
      assert.deepEqual(logged, [{
        message: 'mounted tool left out after a list change',
        detail: { mount: 'mount[0] (prefix "dyn", server "dyn")', tool: '*', reason: 'its tools could not be shaped (transform failed: transform broke); none of them is served' },
      }]);
      assert.deepEqual((await caller.callTool('own', {})).content, [{ type: 'text', text: 'I am own' }]);
      fail = false;
      catalog.set([echo('alpha'), echo('beta')]);
      await until(() => front.tools.length === 3, 'the next change serving the mount again');
    } finally {
      await caller.close();
      await listener.close();
      await front.close();
    }
  });

  it('a new tool with a visibleTo predicate a tool had at start joins, and each caller\'s list still judges it', async () => {
    const hidden = (): boolean => false;
    const catalog = changing([echo('secret', { visibleTo: hidden })]);
    const front = createServer({ name: 'front', version: '1.0.0', tools: [echo('own')], mount: [mountOf(catalog, [])] });
    const listener = await front.listen({ port: 0 });
    const caller = connect(listener.url, { onWarning: () => {} });
    try {
      assert.deepEqual(((await caller.request('tools/list')).tools as { name: string }[]).map((t) => t.name), ['own']);
      catalog.set([echo('secret2', { visibleTo: hidden }), echo('open')]);
      assert.deepEqual(front.tools.map((t) => t.name), ['own', 'dyn__secret2', 'dyn__open'], 'the full catalog has it');
      assert.deepEqual(((await caller.request('tools/list')).tools as { name: string }[]).map((t) => t.name), ['own', 'dyn__open'], 'the caller\'s view does not');
    } finally {
      await caller.close();
      await listener.close();
      await front.close();
    }
  });
});
