/**
 * What main.ts prints at start: the settings, who may call /mcp (and where its token file is), and
 * how to connect. Each recipe works as printed (packages/robot-arm/test/server/banner-recipes.test.ts
 * runs every one); the HTTP ones read the token from its file when they run, so the token itself is
 * never printed (banners end up in logs).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultAuditHeadPath, defaultAuditKeyPath, SERVER_LEGACY_PROTOCOL_VERSIONS, PROTOCOL_VERSION, type Era } from 'toolwright';
import type { ApprovalMode, ApproverMode } from './server/approval-gate.js';
import type { RobotServer } from './server/create-robot-server.js';
import { accessBannerLines, authorizationHeaderArg, noAuthWarning, type McpAccess } from './server/mcp-access.js';
import { approvalOffWarning, operatorResetHint } from './server/operator-controls.js';

/** The start options the banner tells about. */
export interface BannerOptions {
  readonly host: string;
  readonly preset: 'ur5e' | 'xarm6';
  readonly readOnly: boolean;
  readonly approval: ApprovalMode;
  readonly approver: ApproverMode;
  readonly auditLog: string;
  readonly auditKey: string | undefined;
  readonly auditHead: string | undefined;
  readonly rate: number;
  readonly served: ReadonlySet<Era>;
}

/**
 * The recipes printed at start-up. Recipes for an era the server does not serve are replaced by a
 * note saying so.
 */
export function connectionHelp(url: string, options: BannerOptions, access: McpAccess): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(here, '..', '..');
  // The built CLI, as the README shows it: `npm ci` builds dist/ (prepare), and this server already
  // runs on it (it imports 'toolwright', which resolves to dist/). Paths relative to the repository
  // only work from there; elsewhere print absolute ones.
  const cliMain = join(root, 'dist', 'cli', 'main.js');
  const cli = process.cwd() === root ? 'node dist/cli/main.js' : `node ${cliMain}`;
  const header = access.kind === 'token' ? ` --header ${authorizationHeaderArg(access.file)}` : access.kind === 'issuer' ? ' --oauth' : '';
  const dryRun = JSON.stringify({ target_position: { x_mm: -450, y_mm: -150, z_mm: 420 }, dry_run: true });
  const lines = ['How to connect:'];
  if (options.served.has('legacy')) {
    if (access.kind === 'issuer') lines.push(`  MCP Inspector:   npx @modelcontextprotocol/inspector   (web UI: choose "Streamable HTTP", enter ${url}; it runs the OAuth flow with ${access.issuer})`);
    else {
      lines.push(
        `  MCP Inspector:   npx @modelcontextprotocol/inspector --cli ${url} --method tools/list${header}`,
        access.kind === 'token'
          ? `                   (or without --cli ... for its web UI: choose "Streamable HTTP", enter ${url}, and add the header Authorization: Bearer <the token in ${access.file.path}>)`
          : `                   (or without --cli ... for its web UI: choose "Streamable HTTP" and enter ${url})`,
      );
    }
  } else lines.push('  MCP Inspector and desktop hosts speak 2025 (initialize); this server was started with --eras without legacy');
  if (options.served.has('modern')) {
    lines.push(
      `  toolwright call: ${cli} call ${url} get_device_status${header}`,
      `                   ${cli} call ${url} move_arm_to_pose '${dryRun}'${header}`,
      options.approver === 'elicitation'
        ? '                   (a real motion needs a client that can ask a human to approve it; toolwright call cannot)'
        : '                   (toolwright call cannot elicit: a real motion waits for the operator at the console)',
    );
  }
  if (options.served.has('legacy')) lines.push(...desktopRecipe(url, cli, cliMain, options, access));
  return lines.join('\n');
}

/**
 * The desktop host's recipe: the host starts `toolwright bridge`, which relays it to THIS server
 * (the arm the console shows), with the bridge's own token file: no approver scope, so a motion
 * waits for the operator at the console like any call of a client that cannot elicit. The JSON
 * block stays the banner's last lines.
 */
function desktopRecipe(url: string, cli: string, cliMain: string, options: BannerOptions, access: McpAccess): string[] {
  const indent = (json: string): string => `    ${json.replace(/\n/g, '\n    ')}`;
  if (access.kind === 'issuer') {
    // The bridge authenticates with a token file only: a host that runs OAuth itself connects to the URL.
    return ['  Desktop host:    hosts that speak Streamable HTTP and OAuth themselves (Cursor, VS Code) connect to the URL; add to its MCP config:', indent(JSON.stringify({ mcpServers: { 'robot-arm': { url } } }, null, 2))];
  }
  const tokenArgs = access.kind === 'token' ? ['--token-file', access.bridgeFile.path] : [];
  const entry = { command: process.execPath, args: [cliMain, 'bridge', url, ...tokenArgs] };
  const waits = options.approver === 'elicitation' ? 'its motions are refused (--approver elicitation: the bridge\'s token holds no approver scope)' : 'its motions wait for the operator at the console';
  return [
    `  Desktop host:    runs the bridge to this server (the arm the console shows); ${waits}. Write the entry with`,
    `                   ${cli} install claude-desktop --name robot-arm --url ${url}${tokenArgs.length > 0 ? ` --token-file ${access.kind === 'token' ? access.bridgeFile.path : ''}` : ''}`,
    '                   (or vscode, cursor, codex; --print for others), or add to its MCP config:',
    indent(JSON.stringify({ mcpServers: { 'robot-arm': entry } }, null, 2)),
  ];
}

const APPROVER_TEXT: Record<ApproverMode, string> = {
  either: 'clients that can elicit ask their user; other clients wait for the operator at the console',
  console: 'the operator approves every motion at the console',
  elicitation: 'through elicitation only; clients without elicitation are refused',
};

/** The settings block; `access` is undefined on stdio (no /mcp endpoint). */
export function banner(robot: RobotServer, options: BannerOptions, where: string, access?: McpAccess): string {
  const model = robot.model;
  const lines = [
    `Toolwright robot arm: simulated ${model.preset.displayName}, ${robot.tools.length} tools, ${where}`,
    `  approval:   ${options.approval}${options.approval === 'always' ? ' (a human approves every motion)' : ''}; approver ${options.approver} (${APPROVER_TEXT[options.approver]})`,
    ...(access === undefined ? [] : accessBannerLines(access)),
    `  read-only:  ${options.readOnly ? 'yes (motion tools are not registered)' : 'no'}`,
    `  audit log:  ${options.auditLog} (append-only, fsync per record, 0600)`,
    `  audit key:  ${options.auditKey ?? defaultAuditKeyPath()} (HMAC-SHA-256 chain); head ${options.auditHead ?? defaultAuditHeadPath(options.auditLog)}`,
    ...(robot.auditChain.broken !== undefined ? [`  !! AUDIT CHAIN BROKEN: ${robot.auditChain.broken.problems[0] ?? ''}`, `  !! motion is refused until the operator acknowledges it: ${operatorResetHint()}`] : []),
    `  protocol:   ${[options.served.has('modern') ? PROTOCOL_VERSION : '', options.served.has('legacy') ? `2025 clients (${SERVER_LEGACY_PROTOCOL_VERSIONS.join(', ')})` : ''].filter(Boolean).join(' and ')}`,
    `  arm:        ${robot.driver.description}; TCP speed cap ${model.limits.maxTcpSpeedMmS} mm/s; ${options.rate} motion command(s)/s and ${options.rate} planning request(s)/s`,
    `  operator:   ${operatorResetHint()}`,
  ];
  if (options.approval === 'off') lines.unshift(approvalOffWarning());
  if (access?.kind === 'none') lines.unshift(noAuthWarning(options.host));
  return `${lines.join('\n')}\n`;
}
