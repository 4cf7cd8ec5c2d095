// Client driver: Toolwright's own client (src/client), default options. A stdio target is spawned
// by the client itself, as a user's program would.
import { connect } from '../../../src/client/index.js';
import { runDriver, textOf } from './driver-io.js';

await runDriver(async (spec) => {
  const target = spec.target;
  const client = connect('url' in target ? target.url : { command: target.command, args: target.args, cwd: target.cwd, env: { ...process.env, ...target.env } });
  try {
    const listing = await client.listTools();
    const result = await client.callTool(spec.tool, spec.arguments);
    return { tools: listing.tools.map((t) => t.name), isError: result.isError === true, text: textOf(result), structured: result.structuredContent };
  } finally {
    await client.close();
  }
});
