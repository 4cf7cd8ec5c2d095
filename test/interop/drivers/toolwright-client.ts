// Client driver: Toolwright's own client (src/client), default options, plus the row's roots
// when it has some (server-filesystem without a directory argument asks the client for them).
// A stdio target is spawned by the client itself, as a user's program would.
import { pathToFileURL } from 'node:url';
import { connect } from '../../../src/client/index.js';
import { runDriver, textOf } from './driver-io.js';
import { until } from '../../support/until.js';


await runDriver(async (spec) => {
  const target = spec.target;
  const roots = spec.roots?.dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: 'interop' }));
  const stdio = 'url' in target ? undefined : { command: target.command, args: target.args, cwd: target.cwd, env: { ...process.env, ...target.env }, stderr: spec.roots === undefined ? 'inherit' as const : 'capture' as const };
  const headers = 'url' in target ? target.headers : undefined;
  const url = (target as { url: string }).url;
  const client = connect(stdio ?? (headers === undefined ? url : { url, headers }), roots === undefined ? {} : { roots });
  try {
    const listing = await client.listTools();
    const applied = spec.roots?.appliedLog;
    // Checked on each line the server writes (runDriver bounds the wait), not after a fixed sleep.
    if (applied !== undefined) await until(() => (client.stdio?.stderr ?? '').includes(applied), `the server's stderr naming the roots it applied (${applied})`, { timeoutMs: 120_000, intervalMs: 20 });
    const result = await client.callTool(spec.tool, spec.arguments);
    return { tools: listing.tools.map((t) => t.name), isError: result.isError === true, text: textOf(result), structured: result.structuredContent };
  } finally {
    await client.close();
  }
});
