/**
 * The one driver body for both official SDK generations (v1 `@modelcontextprotocol/sdk`, v2
 * `@modelcontextprotocol/client`): their Client and transports have the same surface, so each
 * driver file only names its package's classes.
 */
import { runDriver, textOf } from './driver-io.js';
import type { DriverTarget } from './driver-io.js';

/** The part of an official SDK Client a driver uses. */
interface OfficialClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: ReadonlyArray<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ readonly [key: string]: unknown }>;
  close(): Promise<void>;
}

/** The package's constructors, as each driver imports them. */
export interface OfficialSdk {
  readonly client: () => OfficialClient;
  readonly http: (url: URL, requestInit: { headers: Record<string, string> }) => unknown;
  readonly stdio: (params: { command: string; args: string[]; cwd?: string; env?: Record<string, string> }) => unknown;
}

function transportFor(sdk: OfficialSdk, target: DriverTarget): unknown {
  if ('url' in target) return sdk.http(new URL(target.url), { headers: target.headers ?? {} });
  return sdk.stdio({ command: target.command, args: target.args, cwd: target.cwd, ...(target.env === undefined ? {} : { env: { ...process.env, ...target.env } as Record<string, string> }) });
}

/** Runs the driver protocol with the SDK's default options: connect, list tools, call one, close. */
export async function runOfficialSdkDriver(sdk: OfficialSdk): Promise<void> {
  await runDriver(async (spec) => {
    const client = sdk.client();
    await client.connect(transportFor(sdk, spec.target));
    try {
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: spec.tool, arguments: spec.arguments });
      return { tools: tools.map((t) => t.name), isError: result.isError === true, text: textOf(result), structured: result.structuredContent };
    } finally {
      await client.close();
    }
  });
}
