/**
 * Loads one side of a `toolwright diff`: anything `lint` loads (module, tools.json, URL, stdio
 * command), a `--pin` lockfile that carries the approved catalog, or a catalog as it was at a git
 * revision (`HEAD~1:tools.json`, or a module at a revision, which is run from a temporary export of
 * that revision's tree).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parsePinLock, PinLockError } from '../lint/pin.js';
import { InputError } from '../errors/toolwright-error.js';

const run = promisify(execFile);

/**
 * Loads a target the way `lint` does (the CLI passes `loadToolTarget`; diff sits below the CLI and
 * does not import it). `stdio` marks the target as a command.
 */
export type TargetLoader = (target: string, options: { stdio?: boolean }) => Promise<{ tools: unknown[] }>;

/** A side of the diff that cannot be loaded; the CLI prints the message and exits 2. */
export class DiffTargetError extends InputError {
  readonly errorCode = 'diff-target' as const;
  constructor(message: string) {
    super(message);
    this.name = 'DiffTargetError';
  }
}

/** One loaded side. */
export interface DiffSide {
  tools: unknown[];
  /** What to call it in reports. */
  label: string;
}

async function git(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new DiffTargetError(`git ${args.join(' ')} failed${stderr ? `: ${stderr.split('\n')[0]}` : ''}`);
  }
}

/** True when `text` names a commit in the repository around `cwd` (and is not also a file). */
export async function isGitRevision(text: string, cwd = process.cwd()): Promise<boolean> {
  if (text === '' || text.startsWith('-') || existsSync(resolve(cwd, text))) return false;
  try {
    await run('git', ['rev-parse', '--verify', '--quiet', `${text}^{commit}`], { cwd });
    return true;
  } catch {
    return false;
  }
}

/** `REV:path` → `{rev, path}` when REV is a git revision; undefined otherwise (URLs, plain paths). */
export async function parseRevisionPath(text: string, cwd = process.cwd()): Promise<{ rev: string; path: string } | undefined> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || existsSync(resolve(cwd, text))) return undefined;
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  const rev = text.slice(0, colon);
  const path = text.slice(colon + 1);
  if (path === '' || !(await isGitRevision(rev, cwd))) return undefined;
  return { rev, path };
}

/** A `--pin` lockfile that carries its catalog, or undefined when the JSON is something else. */
function catalogFromLock(text: string, label: string): unknown[] | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || (data as { version?: unknown }).version !== 1 || Array.isArray((data as { tools?: unknown }).tools)) return undefined;
  try {
    const lock = parsePinLock(text);
    if (lock.catalog === undefined) throw new DiffTargetError(`${label} is a pin lockfile without the approved catalog (written before toolwright kept it); re-approve with "toolwright lint <target> --pin ${label} --update-pin"`);
    return lock.catalog;
  } catch (error) {
    if (error instanceof PinLockError) throw new DiffTargetError(`${label} looks like a pin lockfile but ${error.message}`);
    throw error;
  }
}

async function loadFromFileText(text: string, path: string, label: string, load: TargetLoader, options: { stdio?: boolean }): Promise<DiffSide> {
  const fromLock = extname(path).toLowerCase() === '.json' ? catalogFromLock(text, label) : undefined;
  if (fromLock !== undefined) return { tools: fromLock, label };
  const loaded = await load(path, options);
  return { tools: loaded.tools, label };
}

/** Runs `git archive REV | tar -x` into `dir`. */
function exportTree(rev: string, top: string, dir: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const archive = spawn('git', ['archive', '--format=tar', rev], { cwd: top, stdio: ['ignore', 'pipe', 'pipe'] });
    const tar = spawn('tar', ['-x', '-C', dir], { stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    archive.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    tar.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    archive.stdout.pipe(tar.stdin);
    archive.on('error', reject);
    tar.on('error', reject);
    tar.on('close', (code) => (code === 0 ? resolvePromise() : reject(new DiffTargetError(`cannot export ${rev}: ${errors.trim() || `tar exited ${String(code)}`}`))));
  });
}

/** The catalog at `path` as it was at git revision `rev` (path relative to the current directory). */
async function loadAtRevision(rev: string, path: string, label: string, load: TargetLoader, options: { stdio?: boolean }): Promise<DiffSide> {
  const cwd = process.cwd();
  const top = (await git(['rev-parse', '--show-toplevel'], cwd)).trim();
  const inRepo = relative(top, isAbsolute(path) ? path : resolve(cwd, path)).split('\\').join('/');
  if (inRepo.startsWith('..')) throw new DiffTargetError(`${label}: ${path} is outside the git repository at ${top}`);
  const exists = await run('git', ['cat-file', '-e', `${rev}:${inRepo}`], { cwd: top }).then(() => true, () => false);
  if (!exists) throw new DiffTargetError(`${label}: ${inRepo} does not exist at ${rev}`);
  const dir = await mkdtemp(join(tmpdir(), 'toolwright-diff-'));
  try {
    if (extname(inRepo).toLowerCase() === '.json') {
      const text = await git(['show', `${rev}:${inRepo}`], top);
      const file = join(dir, basename(inRepo));
      await writeFile(file, text);
      return await loadFromFileText(text, file, label, load, options);
    }
    // A module imports its neighbours, so the whole tree at that revision is exported; packages come
    // from the current checkout's node_modules (a revision's lockfile may differ: the label says which).
    await exportTree(rev, top, dir);
    if (existsSync(join(top, 'node_modules')) && !existsSync(join(dir, 'node_modules'))) await symlink(join(top, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const loaded = await load(join(dir, inRepo), options);
    return { tools: loaded.tools, label };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Loads one side of a diff. `target` is a module, a tools.json, a pin lockfile with its catalog, a
 * URL, `REV:path`, or (with `options.stdio`) a command. Throws {@link DiffTargetError}.
 */
export async function loadDiffSide(target: string, load: TargetLoader, options: { stdio?: boolean } = {}): Promise<DiffSide> {
  if (options.stdio) return { tools: (await load(target, options)).tools, label: `stdio server "${target}"` };
  const atRevision = await parseRevisionPath(target);
  if (atRevision !== undefined) return loadAtRevision(atRevision.rev, atRevision.path, target, load, options);
  const path = resolve(target);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target) && extname(path).toLowerCase() === '.json' && existsSync(path)) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new DiffTargetError(`cannot read ${target}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return loadFromFileText(text, path, target, load, options);
  }
  return { tools: (await load(target, options)).tools, label: target };
}

/** `toolwright diff REV <target>`: the same target as it was at REV (a URL or command has no history). */
export async function loadTargetAtRevision(rev: string, target: string, load: TargetLoader, options: { stdio?: boolean } = {}): Promise<DiffSide> {
  if (options.stdio || /^[a-z][a-z0-9+.-]*:\/\//i.test(target)) throw new DiffTargetError(`${rev}: a git revision can only be compared with a file or module target, not ${options.stdio ? 'a stdio command' : 'a URL'}`);
  return loadAtRevision(rev, target, `${rev}:${target}`, load, options);
}
