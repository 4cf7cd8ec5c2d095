/**
 * The robot-arm reference server's command line: `npm start` runs it over Streamable HTTP on
 * 127.0.0.1 (PORT, default 3000, endpoint /mcp). Robot-specific options live here, not in
 * `toolwright serve`: preset, read-only, approval mode, audit log path, simulation speed.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AuditKeyError, defaultAuditKeyPath, explainArgsError, resolveEras, type Era } from 'toolwright';
import type { ApprovalMode, ApproverMode } from './server/approval-gate.js';
import { assertConsoleToken, type ConsoleMount } from 'toolwright/console';
import { createArmConsole } from './console/arm-console.js';
import { RobotArmFeed } from './console/robot-arm-feed.js';
import { AuditLog, AuditLogLockedError } from './server/audit-log.js';
import { carryLegacyLatchesAtStart } from './server/legacy-latch.js';
import { createRobotServer, type RobotServer } from './server/create-robot-server.js';
import { RemoteArmDriver } from './controller/remote-arm-driver.js';
import type { ArmDriver } from './driver/arm-driver.js';
import { SimArmDriver } from './driver/sim-arm-driver.js';
import { createArmModel } from './model/arm-model.js';
import { exitAtOnce, SHUTDOWN_DRAIN_MS, shutDownGracefully, trackInFlight } from './server/graceful-shutdown.js';
import { installOperatorReset } from './server/operator-controls.js';
import { exposureProblem, issuerAccess, robotTokenPath, tokenAccess, type McpAccess } from './server/mcp-access.js';
import { banner, connectionHelp } from './start-banner.js';
import { parseApproval, parseApprover, parseHeartbeatTimeout, parsePreset, parseRate, parseTimeScale, RobotSettingsError } from './server/robot-settings.js';
import { realTimePacer } from './driver/sim-pacer.js';

/**
 * Where the audit log goes without --audit-log: `.data/` in this package, so each checkout has its
 * own log, lock, e-stop latch and controller pose. A shared temp path mixed every user's and every
 * clone's records on one machine and made two clones fight over one lock; in the checkout, the
 * records and a latched e-stop stay with the arm they belong to. (.data/ is git-ignored.)
 */
export function defaultAuditLogPath(packageRoot: string = dirname(fileURLToPath(import.meta.url))): string {
  return join(packageRoot, '.data', 'audit.jsonl');
}

/** Creates the audit log's directory; one it creates is the user's only (0700): the records name what every caller did. */
export function prepareAuditLogDirectory(auditLog: string): void {
  mkdirSync(dirname(auditLog), { recursive: true, mode: 0o700 });
}

const HELP = `Usage: node --import tsx packages/robot-arm/main.ts [options]

Serves a simulated robot arm as MCP tools (Streamable HTTP on 127.0.0.1 by default).

Options:
  --stdio                 Serve on stdin/stdout instead of HTTP (for desktop clients)
  --port <n>              HTTP port (default: PORT env, else 3000; 0 picks a free one)
  --host <addr>           HTTP bind address (default 127.0.0.1)
  --preset <id>           Arm: ur5e (default) or xarm6
  --read-only             Register sensing and status tools only; motion tools do not exist
  --approval <mode>       always (default) | large-moves | off. "off" skips human approval:
                          only for pure simulation, and announced loudly at start-up
  --approver <who>        either (default): clients that can elicit ask their user, the others'
                          calls are held (45 s) for the operator at the console | console: the
                          console operator approves every motion | elicitation: no console approval
  --no-auth               Serve /mcp without authorization (local development only; announced
                          loudly). By default /mcp needs "Authorization: Bearer <token>", the token
                          kept in ${robotTokenPath()}
                          (0600; created at the first start, reused after; delete it for a new one)
  --allow-unauthenticated With --no-auth: allow a --host that is not loopback (a trusted network)
  --issuer <url>          Accept OAuth tokens from this issuer instead of the token file (JWTs
                          checked against its keys; needs --resource). A token approves motions
                          by elicitation only with the scope toolwright:approve
  --resource <uri>        This server's canonical URI, the tokens' audience (with --issuer)
  --console-token <t>     Token of the operator console (16+ of A-Z a-z 0-9 . _ ~ -; default:
                          random per start). The console is served on the same port, /console
  --hold-to-run           Stop the arm (e-stop, latched) when the last console page goes away
                          during a motion, like a released enabling switch
  --audit-log <path>      Append-only audit log (default: ${defaultAuditLogPath()},
                          this checkout's own, in a directory created 0700; files 0600)
  --audit-key <path>      Key of the audit chain (HMAC-SHA-256), outside the log's directory
                          (default: ${defaultAuditKeyPath()}, created 0600)
  --audit-head <path>     Sealed head of the audit chain, outside the log's directory (default:
                          under the same state directory, one per log path). A broken chain found
                          at start (edited, cut, reordered or deleted records) refuses motion until
                          the operator's reset acknowledges it; status and stop_arm stay available.
                          Check a log offline: toolwright audit verify <log> --key <k> --head <h>
  --time-scale <x>        Simulated seconds per wall-clock second (default 1)
  --controller <where>    process (default): the arm's controller runs as its own process,
                          robot-sim, spoken to over a private Unix socket with a per-start secret,
                          restarted if it dies | inprocess: the simulator runs inside this process
  --heartbeat-timeout <ms>
                          With --controller process: how long the controller may stay silent before
                          the arm is in fault (motions refused) and the controller is replaced,
                          300-60000 ms (default 2000). A dead controller is seen at once; this bound
                          is for a hung one. Lower catches a hang sooner; on a loaded machine too low
                          a bound trips while the controller checks a long path
  --rate <n>              Motion commands per second, and planning requests per second
                          (plan_trajectory, dry runs), each (default 2)
  --eras <list>           Protocol eras served: both (default: 2026-07-28 and 2025 clients such as
                          the MCP Inspector and desktop hosts), modern, legacy, or e.g. 2026-07-28,2025
  -h, --help              Show this help

Operator controls (never tools): send SIGUSR2 to this process to clear a latched emergency stop
(and acknowledge a protective-stop fault and a broken audit chain).
`;

interface Parsed {
  stdio: boolean;
  port: number;
  host: string;
  preset: 'ur5e' | 'xarm6';
  readOnly: boolean;
  approval: ApprovalMode;
  approver: ApproverMode;
  /** --no-auth: /mcp asks nobody who they are. */
  noAuth: boolean;
  /** --issuer and --resource, checked (undefined: the token file). */
  oauth: McpAccess | undefined;
  /** Undefined: random per start. */
  consoleToken: string | undefined;
  holdToRun: boolean;
  auditLog: string;
  /** Given with --audit-key / --audit-head (undefined: the defaults for the log). */
  auditKey: string | undefined;
  auditHead: string | undefined;
  timeScale: number;
  controller: 'process' | 'inprocess';
  /** Undefined: the controller link's default. */
  heartbeatTimeoutMs: number | undefined;
  rate: number;
  served: ReadonlySet<Era>;
}

class UsageError extends RobotSettingsError {}

function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`${flag} needs a file path, got ""`);
  return value;
}

/** The audit log's chain files as given on the command line (the log's defaults otherwise). */
function auditFiles(options: Parsed): { key?: string; head?: string } {
  return { ...(options.auditKey !== undefined ? { key: options.auditKey } : {}), ...(options.auditHead !== undefined ? { head: options.auditHead } : {}) };
}

const OPTIONS = {
  stdio: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  preset: { type: 'string' },
  'read-only': { type: 'boolean' },
  approval: { type: 'string' },
  approver: { type: 'string' },
  'no-auth': { type: 'boolean' },
  'allow-unauthenticated': { type: 'boolean' },
  issuer: { type: 'string' },
  resource: { type: 'string' },
  'console-token': { type: 'string' },
  'hold-to-run': { type: 'boolean' },
  'audit-log': { type: 'string' },
  'audit-key': { type: 'string' },
  'audit-head': { type: 'string' },
  'time-scale': { type: 'string' },
  controller: { type: 'string' },
  'heartbeat-timeout': { type: 'string' },
  rate: { type: 'string' },
  eras: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** parseArgs, its errors said as `toolwright` says them (a mistyped flag gets "did you mean"). */
function parseFlags(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS }).values;
  } catch (error) {
    throw new UsageError(explainArgsError(error, OPTIONS));
  }
}

function parse(argv: string[], env: NodeJS.ProcessEnv): Parsed | 'help' {
  const values = parseFlags(argv);
  if (values.help === true) return 'help';
  const portText = values.port ?? env.PORT ?? '3000';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) throw new UsageError(`port must be a number 0-65535, got ${JSON.stringify(portText)}${values.port === undefined ? ' (from PORT)' : ''}`);
  const preset = parsePreset(values.preset ?? 'ur5e', '--preset');
  const approval = parseApproval(values.approval ?? 'always', '--approval');
  // The console lives on the HTTP listener: a stdio server has none, so its user approves through elicitation.
  const approver = parseApprover(values.approver ?? (values.stdio === true ? 'elicitation' : 'either'), '--approver');
  if (values.stdio === true && approver !== 'elicitation') throw new UsageError(`--approver ${approver} needs the operator console, which is served over HTTP only (not with --stdio)`);
  // Checked by the console's own rule before anything starts (the robot-sim controller included).
  const consoleToken = values['console-token'];
  if (consoleToken !== undefined) {
    try {
      assertConsoleToken(consoleToken);
    } catch (error) {
      throw new UsageError(`--console-token: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const noAuth = values['no-auth'] === true;
  const host = values.host ?? '127.0.0.1';
  if (values.stdio === true && (noAuth || values['allow-unauthenticated'] === true)) throw new UsageError(`${noAuth ? '--no-auth' : '--allow-unauthenticated'} applies to HTTP only (on --stdio the process that starts this one is the caller)`);
  if (values['allow-unauthenticated'] === true && !noAuth) throw new UsageError('--allow-unauthenticated only applies with --no-auth (with the default bearer token, /mcp is authorized on any --host)');
  let oauth: McpAccess | undefined;
  if (values.issuer !== undefined || values.resource !== undefined) {
    if (values.issuer === undefined || values.resource === undefined) throw new UsageError('--issuer and --resource go together (the issuer whose tokens are accepted, and this server\'s URI, their audience)');
    if (values.stdio === true || noAuth) throw new UsageError(`--issuer does not apply with ${noAuth ? '--no-auth' : '--stdio'}`);
    try {
      oauth = issuerAccess(values.issuer, values.resource);
    } catch (error) {
      throw new UsageError(`--issuer/--resource: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const exposed = values.stdio === true ? undefined : exposureProblem(host, !noAuth, values['allow-unauthenticated'] === true);
  if (exposed !== undefined) throw new UsageError(exposed);
  const timeScale = parseTimeScale(values['time-scale'] ?? '1', '--time-scale');
  const controller = values.controller ?? 'process';
  if (controller !== 'process' && controller !== 'inprocess') throw new UsageError(`--controller must be process or inprocess, got ${JSON.stringify(controller)}`);
  const heartbeatText = values['heartbeat-timeout'];
  const heartbeatTimeoutMs = heartbeatText === undefined ? undefined : parseHeartbeatTimeout(heartbeatText, '--heartbeat-timeout');
  if (heartbeatTimeoutMs !== undefined && controller !== 'process') throw new UsageError('--heartbeat-timeout applies to --controller process only (the in-process simulator has no link to lose)');
  const rate = parseRate(values.rate ?? '2', '--rate');
  let served: ReadonlySet<Era>;
  try {
    served = resolveEras(values.eras);
  } catch (error) {
    throw new UsageError(`--${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    served,
    stdio: values.stdio === true,
    port: Number(portText),
    host,
    preset,
    readOnly: values['read-only'] === true,
    approval,
    approver,
    noAuth,
    oauth,
    consoleToken,
    holdToRun: values['hold-to-run'] === true,
    auditLog: resolve(values['audit-log'] ?? defaultAuditLogPath()),
    auditKey: values['audit-key'] === undefined ? undefined : resolve(nonEmpty('--audit-key', values['audit-key'])),
    auditHead: values['audit-head'] === undefined ? undefined : resolve(nonEmpty('--audit-head', values['audit-head'])),
    timeScale,
    controller,
    heartbeatTimeoutMs,
    rate,
  };
}

/** Why the audit log cannot be opened, said to the operator as it is: held by another process, a key problem, a key or head beside the log. */
function isAuditOpenError(error: unknown): error is Error {
  return error instanceof AuditLogLockedError || error instanceof AuditKeyError || (error instanceof RangeError && error.message.startsWith('audit log'));
}

/** Runs the command line; resolves to the exit code once the server has stopped. */
export async function main(argv: string[]): Promise<number> {
  let options: Parsed | 'help';
  try {
    options = parse(argv, process.env);
  } catch (error) {
    process.stderr.write(`robot-arm: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  prepareAuditLogDirectory(options.auditLog);
  // Who may call /mcp is settled before anything starts: an unusable token file is a start-up error.
  let access: McpAccess | undefined;
  if (!options.stdio) {
    try {
      access = options.noAuth ? { kind: 'none' } : options.oauth ?? tokenAccess();
    } catch (error) {
      process.stderr.write(`robot-arm: cannot prepare the /mcp token file ${robotTokenPath()}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  // A default log in this checkout: an e-stop latched where the default used to be is not lost.
  for (const line of carryLegacyLatchesAtStart(options.auditLog, defaultAuditLogPath())) process.stderr.write(`${line}\n`);
  let driver: ArmDriver;
  if (options.controller === 'inprocess') driver = new SimArmDriver({ model: createArmModel({ preset: options.preset }), pacer: realTimePacer(options.timeScale) });
  else {
    // The log's lock decides which server owns the files beside it; checked before a controller is started for them.
    try {
      new AuditLog(options.auditLog, auditFiles(options)).close();
    } catch (error) {
      if (!isAuditOpenError(error)) throw error;
      process.stderr.write(`robot-arm: ${error.message}\n`);
      return 1;
    }
    try {
      // The controller's own latch and pose live beside the audit log, as the server's latch does.
      driver = await RemoteArmDriver.start({ preset: options.preset, timeScale: options.timeScale, latchPath: `${options.auditLog}.controller-estop.json`, posePath: `${options.auditLog}.controller-pose.json`, ...(options.heartbeatTimeoutMs !== undefined ? { heartbeatTimeoutMs: options.heartbeatTimeoutMs } : {}) });
    } catch (error) {
      process.stderr.write(`robot-arm: cannot start the robot-sim controller: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  let robot: RobotServer;
  try {
    robot = createRobotServer({
      driver,
      preset: options.preset,
      approval: options.approval,
      approver: options.approver,
      readOnly: options.readOnly,
      auditLogPath: options.auditLog,
      ...(options.auditKey !== undefined ? { auditKeyPath: options.auditKey } : {}),
      ...(options.auditHead !== undefined ? { auditHeadPath: options.auditHead } : {}),
      motionRatePerSecond: options.rate,
      ...(access !== undefined && access.kind !== 'none' ? { authorize: access.authorize } : {}),
    });
  } catch (error) {
    await driver.close();
    if (!isAuditOpenError(error)) throw error;
    process.stderr.write(`robot-arm: ${error.message}\n`);
    return 1;
  }
  installOperatorReset(robot, (line) => process.stderr.write(`${line}\n`));
  // The operator sees a lost controller or a protective stop as it happens (the audit log has it too).
  driver.onFault((fault) => process.stderr.write(`robot-arm: arm fault (${fault.kind}): ${fault.message}\n`));
  // First SIGINT/SIGTERM: graceful shutdown (drain, controlled stop); a second one: exit at once.
  let signalled = false;
  const stopped: Promise<string>[] = [
    new Promise((done) => {
      const onSignal = (signal: string): void => {
        if (signalled) exitAtOnce(robot, signal);
        signalled = true;
        done(signal);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    }),
  ];
  let http: Parameters<typeof shutDownGracefully>[1];
  let closeConsole = (): void => undefined;
  // Logs and help go to stderr: on stdio, stdout carries the protocol.
  if (options.stdio) {
    const connection = robot.server.stdio({ eras: [...options.served] });
    process.stderr.write(banner(robot, options, 'on stdio'));
    stopped.push(connection.closed.then(() => 'stdin closed'));
  } else {
    const feed = new RobotArmFeed(robot);
    let consoleMount: ConsoleMount;
    try {
      consoleMount = createArmConsole({ server: robot.server, feed, awaitingUser: robot.approval.awaitingUser, operator: `console operator (pid ${process.pid})`, holdToRun: options.holdToRun, ...(options.consoleToken !== undefined ? { token: options.consoleToken } : {}) });
    } catch (error) {
      feed.close();
      await robot.close();
      process.stderr.write(`robot-arm: --console-token: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
      return 2;
    }
    let url: string;
    let consoleUrl: string;
    try {
      await consoleMount.ready();
      const listener = await robot.server.listen({ port: options.port, host: options.host, eras: [...options.served], mounts: [consoleMount] });
      url = String(listener.url);
      consoleUrl = consoleMount.url(listener);
      http = { server: listener.server, inFlight: trackInFlight(listener.server) };
    } catch (error) {
      const inUse = (error as { code?: unknown }).code === 'EADDRINUSE' ? `; another process is listening there: pick another port with --port <port> or PORT=<port> (npm start -- --port 3001)` : '';
      process.stderr.write(`robot-arm: cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}${inUse}\n`);
      consoleMount.close();
      feed.close();
      await robot.close();
      return 1;
    }
    closeConsole = () => {
      consoleMount.close();
      feed.close();
    };
    process.stderr.write(`${banner(robot, options, `at ${url}`, access)}console: ${consoleUrl}\n\n${connectionHelp(url, options, access ?? { kind: 'none' })}\n`);
  }
  const reason = await Promise.race(stopped);
  process.stderr.write(`robot-arm: stopping (${reason})\n`);
  closeConsole();
  await shutDownGracefully(robot, http, SHUTDOWN_DRAIN_MS, (line) => process.stderr.write(`${line}\n`));
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    process.stderr.write(`robot-arm: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
