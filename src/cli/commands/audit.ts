import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AuditKeyError } from '../../server/audit/audit-key.js';
import { defaultAuditHeadPath, defaultAuditKeyPath } from '../../server/audit/audit-paths.js';
import { STATE_DIR_ENV } from '../../server/files/state-dir.js';
import { verifyHashChainLog } from '../../server/audit/hash-chain-verify.js';
import type { HashChainVerification } from '../../server/audit/hash-chain-verify.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';

export const summary = 'verify an audit log offline: its keyed chain, rotated files and sealed head';

const HELP = `Usage: toolwright audit verify <log> [--key <file>] [--head <file>] [--allow-pruned-head] [--json]

Verifies an audit log written by auditLog() or by the robot arm: every record's link to the one
before (HMAC-SHA-256 under the key once the chain is keyed; plain SHA-256 before), the rotated
files <log>.1, <log>.2, ... as one chain, and the sealed head: a log that ends before its head was
cut, a last record that is not the sealed one was edited, a keyed log without its head cannot be
told from a cut one.

Options:
  --key <file>           The chain's key (default: ${'$'}${STATE_DIR_ENV}/audit.key, else
                         ${'$'}XDG_STATE_HOME/toolwright/audit.key, else ~/.local/state/toolwright/audit.key:
                         what auditLog({ path }) in a module under \`toolwright serve\` and \`npm start\`
                         use unless told otherwise). Without a key file, a keyed chain is reported
                         as unverifiable.
  --head <file>          The log's sealed head (default: audit-heads/<log name>-<hash of its
                         absolute path>.head in the same state folder). A log moved since it was
                         written has another default: name its head.
  --allow-pruned-head    Accept a log whose oldest rotated files were deleted on purpose
  --json                 Print the verdict as JSON (records left out)
  -h, --help             Show this help

Exit status: 0 intact, 1 broken (every problem is printed), 2 usage error, missing log or an
unusable key file.`;

function describe(log: string, verdict: HashChainVerification): string[] {
  const { records, keyed, head, tornLines } = verdict;
  const first = records[0]?.seq;
  const last = records[records.length - 1]?.seq;
  const lines = [`${records.length} record(s)${first === undefined ? '' : ` (seq ${first}-${last})`}`];
  if (keyed === undefined) lines.push('unkeyed chain: plain hashes, which anyone who can write the file can recompute; only naive edits are detected');
  else lines.push(`keyed from seq ${keyed.fromSeq} (key ${keyed.keyId})${keyed.fromSeq > 1 ? `; the ${keyed.fromSeq - 1} record(s) before were written unkeyed` : ''}`);
  if (head !== undefined) lines.push(`sealed head at seq ${head.seq}${head.pastHead > 0 ? `; ${head.pastHead} record(s) past it (written before a crash could seal them: they link by MAC, so no break)` : ''}`);
  if (tornLines > 0) lines.push(`${tornLines} torn line(s) from a crash skipped`);
  if (verdict.headPruned) lines.push('the oldest rotated files were pruned: the records before are not verified');
  return lines.map((line) => `  ${line}`);
}

/** `toolwright audit verify`: exit 0 intact, 1 broken, 2 usage error or unreadable input. */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandArgs('audit', HELP, argv, {
    key: { type: 'string' },
    head: { type: 'string' },
    'allow-pruned-head': { type: 'boolean' },
    json: { type: 'boolean' },
  }, io);
  if (typeof parsed === 'number') return parsed;
  const values = parsed.values as { key?: string; head?: string; 'allow-pruned-head'?: boolean; json?: boolean };
  const [action, logArg, ...extra] = parsed.positionals;
  const usage = (message: string): number => {
    io.stderr.write(`toolwright audit: ${message}\n\n${HELP}\n`);
    return 2;
  };
  if (action !== 'verify') return usage(action === undefined ? 'expected a subcommand: verify' : `unknown subcommand ${JSON.stringify(action)} (expected verify)`);
  if (logArg === undefined || extra.length > 0) return usage(`verify takes exactly one log, got ${parsed.positionals.length - 1}`);
  for (const flag of ['key', 'head'] as const) if (values[flag] !== undefined && values[flag].trim() === '') return usage(`--${flag} needs a file path, got ""`);
  const env = io.env ?? process.env;
  const log = resolve(logArg);
  // An explicit key must load; the default one is used when it exists (else a keyed log says it needs one).
  const keyPath = values.key ?? (existsSync(defaultAuditKeyPath(env)) ? defaultAuditKeyPath(env) : undefined);
  if (values.head !== undefined && keyPath === undefined) return usage(`--head needs the key the head was sealed with: no --key given and no key at ${defaultAuditKeyPath(env)}`);
  const headPath = values.head ?? (keyPath !== undefined ? defaultAuditHeadPath(log, env) : undefined);
  let verdict: HashChainVerification;
  try {
    verdict = verifyHashChainLog(log, {
      ...(keyPath !== undefined ? { key: keyPath } : {}),
      ...(headPath !== undefined ? { head: headPath } : {}),
      allowPrunedHead: values['allow-pruned-head'] === true,
    });
  } catch (error) {
    if (error instanceof AuditKeyError) {
      io.stderr.write(`toolwright audit: ${error.message}\n`);
      return 2;
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      io.stderr.write(`toolwright audit: no log at ${log}${headPath === undefined ? '' : ` (and no head at ${resolve(headPath)} says one existed)`}\n`);
      return 2;
    }
    throw error;
  }
  if (values.json === true) {
    const { records, head, ...rest } = verdict;
    const files = { log, key: keyPath === undefined ? null : resolve(keyPath), headFile: headPath === undefined ? null : resolve(headPath) };
    io.stdout.write(`${JSON.stringify({ ...files, ...rest, head: head ?? null, recordCount: records.length }, null, 2)}\n`);
    return verdict.ok ? 0 : 1;
  }
  if (verdict.ok) {
    io.stdout.write(`intact: ${log}\n${describe(log, verdict).join('\n')}\n`);
    return 0;
  }
  io.stdout.write(`BROKEN: ${log}\n${verdict.problems.map((problem) => `  ${problem}`).join('\n')}\n${describe(log, verdict).join('\n')}\n`);
  return 1;
}
