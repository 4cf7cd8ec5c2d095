// Command-line contract shared by every benchmark server program, so the harness can start any of
// them the same way: `node <server>.js --port <n> --tools <catalog size> [--variant <name>]`, where a
// variant picks one configuration of a parametrised program (e.g. the SDK's legacy posture).

export interface ServerArgs {
  readonly port: number;
  readonly host: string;
  readonly tools: number;
  /** Which configuration of the program ('default' unless `--variant` says otherwise). */
  readonly variant: string;
}

export function parseServerArgs(argv: readonly string[]): ServerArgs {
  let port = 0;
  let tools = 1;
  let host = '127.0.0.1';
  let variant = 'default';
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--port' && value !== undefined) { port = Number(value); i++; }
    else if (flag === '--tools' && value !== undefined) { tools = Number(value); i++; }
    else if (flag === '--host' && value !== undefined) { host = value; i++; }
    else if (flag === '--variant' && value !== undefined) { variant = value; i++; }
    else throw new Error(`unknown or incomplete server argument: ${flag}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${port}`);
  if (!Number.isInteger(tools) || tools < 1) throw new Error(`--tools must be a positive integer, got ${tools}`);
  return { port, host, tools, variant };
}

/** The variant this program was asked for, checked against the ones it has. */
export function chooseVariant<V extends string>(args: ServerArgs, variants: readonly V[]): V {
  if (!(variants as readonly string[]).includes(args.variant)) throw new Error(`--variant must be one of ${variants.join(', ')}, got ${args.variant}`);
  return args.variant as V;
}

/** Line the harness waits for on an HTTP server's stdout before sending traffic. */
export function announceReady(port: number): void {
  process.stdout.write(`READY ${port}\n`);
}

/**
 * Exit cleanly on SIGTERM/SIGINT: `node --cpu-prof` only writes its profile on a normal exit,
 * and the harness stops every server by PID with SIGTERM.
 */
export function exitOnSignal(): void {
  const exit = (): void => process.exit(0);
  process.once('SIGTERM', exit);
  process.once('SIGINT', exit);
}
