/**
 * The contract between the interop runner and a client driver (a small program that connects one
 * client library to a server, lists tools and calls one). The runner passes an array of
 * {@link DriverSpec} as JSON in argv[2], one per cell of the driver's column, so one process
 * serves the column; the driver runs them in order, each bounded by `timeoutMs`, and prints one
 * line per spec, `INTEROP-RESULT <i> <json>` with a {@link DriverReport} or
 * `INTEROP-ERROR <i> <message>` with the library's own error, then exits.
 */

/** A server to reach: a Streamable HTTP URL (with the headers every request carries, e.g. a bearer token), or a command a stdio client spawns. */
export type DriverTarget = { url: string; headers?: Record<string, string> } | { command: string; args: string[]; env?: Record<string, string>; cwd?: string };

/** What the runner asks a driver to do. */
export interface DriverSpec {
  target: DriverTarget;
  tool: string;
  arguments: Record<string, unknown>;
  /**
   * Directories the client offers as roots (file:// URIs are made from them), and the stderr line
   * of the server that says it applied them; the driver waits for it before calling.
   */
  roots?: { dirs: string[]; appliedLog: string };
  /** Bound for this spec, connect to close. */
  timeoutMs: number;
}

/** What a driver saw: tool names as listed, and the call's result in one common shape. */
export interface DriverReport {
  tools: string[];
  isError: boolean;
  text: string;
  structured?: unknown;
}

export const RESULT_PREFIX = 'INTEROP-RESULT ';
export const ERROR_PREFIX = 'INTEROP-ERROR ';

/** `name code: message`, then each cause, so the table shows the library's exact words. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      // Some libraries put their stack into the message; the frames are noise in a table.
      const message = current.message.split('\n').filter((line) => !/^\s*at /.test(line)).join(' ').trim();
      // A cause that only repeats its wrapper's words adds nothing.
      if (!parts.some((part) => part.includes(message))) parts.push(`${current.name}${code === undefined ? '' : ` ${String(code)}`}: ${message}`);
      current = (current as { cause?: unknown }).cause;
    } else {
      const text = typeof current === 'string' ? current : JSON.stringify(current);
      if (!parts.some((part) => part.includes(text))) parts.push(text);
      break;
    }
  }
  return parts.join(' <- caused by ');
}

/** Text blocks of an MCP CallToolResult, joined. */
export function textOf(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return '';
  return content.filter((b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text').map((b) => b.text).join('\n');
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Runs a driver body for each spec and prints its line; exits at the end even if the library left
 * handles open (a spec that timed out may have; the runner kills the process group after exit).
 */
export async function runDriver(body: (spec: DriverSpec, index: number) => Promise<DriverReport>): Promise<void> {
  const specs = JSON.parse(process.argv[2] ?? '[]') as DriverSpec[];
  for (const [index, spec] of specs.entries()) {
    let line: string;
    try {
      line = `${RESULT_PREFIX}${index} ${JSON.stringify(await withTimeout(body(spec, index), spec.timeoutMs))}`;
    } catch (error) {
      line = `${ERROR_PREFIX}${index} ${describeError(error).replace(/\s*\n\s*/g, ' ')}`;
    }
    await new Promise<void>((done) => process.stdout.write(`${line}\n`, () => done()));
  }
  process.exit(0);
}
