/**
 * Imports a user's module for `serve`, `lint`, `preview`, `gateway` and the other commands that
 * take a module target, TypeScript included, the way `node --import tsx` would.
 *
 * tsx compiles a `.ts` file to CommonJS when its nearest package.json says `"type": "commonjs"` or
 * has no `type` (what `npm init -y` writes), to ESM otherwise; `.mts` is always ESM, `.cts` always
 * CommonJS. Registering only tsx's ESM hooks is not enough for the CommonJS case: Node then
 * require()s the file as an ES module from inside its own import and fails with "Cannot require()
 * ES Module ... in a cycle". So both of tsx's hook sets are registered, as `--import tsx` does.
 *
 * tsx is a dependency of the package, not a devDependency, so that a project using Toolwright
 * loads TypeScript tool files with nothing else installed: Node 20 cannot run TypeScript, and the
 * type stripping of later Nodes takes neither enums nor `.js` specifiers for `.ts` files nor
 * tsconfig (the README's "Use it in your own project" says more).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../errors/toolwright-error.js';

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);
const COMMONJS_EXTENSIONS = new Set(['.cjs', '.cts']);

/** Why a module could not be imported; `message` is meant for the command line as it is. */
export class ModuleImportError extends InputError {
  readonly errorCode = 'module-import' as const;
  constructor(message: string, readonly kind: 'no-loader' | 'load', options?: { cause: unknown }) {
    super(message, options);
    this.name = 'ModuleImportError';
  }
}

let tsxRegistered: Promise<void> | undefined;

/** Registers tsx's ESM and CommonJS hooks once per process: every further registration would add another copy of each hook. */
function registerTsx(): Promise<void> {
  tsxRegistered ??= (async () => {
    const esm = (await import('tsx/esm/api')) as { register: () => unknown };
    const cjs = (await import('tsx/cjs/api')) as { register: () => unknown };
    cjs.register();
    esm.register();
  })();
  return tsxRegistered;
}

/** The nearest package.json above `file` and its `type` field, as Node and tsx look it up. */
async function packageTypeOf(file: string): Promise<{ packageJson: string; type: string | undefined } | undefined> {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const packageJson = join(dir, 'package.json');
    const text = await readFile(packageJson, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        const type: unknown = (JSON.parse(text) as { type?: unknown }).type;
        return { packageJson, type: typeof type === 'string' ? type : undefined };
      } catch {
        return { packageJson, type: undefined };
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Load failures that an ES module would not have: top-level await compiled to CommonJS, and
 * require() of an ES module graph that Node refuses (older Node, top-level await, a cycle).
 */
function needsEsm(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE' || code === 'ERR_REQUIRE_CYCLE_MODULE') return true;
  return error instanceof Error && error.message.includes('Top-level await is currently not supported with the "cjs" output format');
}

/**
 * What to change when a TypeScript file that runs as CommonJS failed for want of ESM: the
 * package.json or the file's extension, named exactly. Empty when the file already runs as ESM,
 * since the advice would then be wrong.
 */
async function commonJsHint(path: string, label: string): Promise<string> {
  const extension = extname(path).toLowerCase();
  if (extension === '.cts') return `${label} is a .cts file, which always runs as CommonJS; rename it to .mts to run it as an ES module`;
  if (extension !== '.ts') return '';
  const found = await packageTypeOf(path);
  if (found?.type === 'module') return '';
  const why = found === undefined
    ? 'no package.json above it sets "type": "module"'
    : found.type === undefined
      ? `${found.packageJson} has no "type" field`
      : `${found.packageJson} has "type": ${JSON.stringify(found.type)}`;
  const where = found === undefined ? 'a package.json beside it' : found.packageJson;
  return `${label} runs as CommonJS because ${why}; add "type": "module" to ${where}, or rename the file to .mts`;
}

/**
 * A module compiled to CommonJS from ES syntax (by tsx, tsc or esbuild) marks its exports with
 * `__esModule`; Node's import then gives the whole `module.exports` as `default`, so the module's
 * own default export is one level further down. This returns the namespace the author wrote.
 */
function authoredNamespace(namespace: Record<string, unknown>): Record<string, unknown> {
  const exported = namespace.default;
  if (typeof exported === 'object' && exported !== null && (exported as { __esModule?: unknown }).__esModule === true) {
    return exported as Record<string, unknown>;
  }
  return namespace;
}

/**
 * Imports `path` (an absolute file path) and returns its namespace as its author wrote it.
 * `label` is how the command line names the file in messages.
 *
 * @throws ModuleImportError `no-loader` when TypeScript needs tsx and it cannot be loaded (a
 *   dependency of the package, so a broken install);
 *   `load` when importing throws, with the error as `cause` and, for a file that only fails as
 *   CommonJS, what to change.
 */
export async function importModule(path: string, label: string): Promise<Record<string, unknown>> {
  if (TYPESCRIPT_EXTENSIONS.has(extname(path).toLowerCase())) {
    try {
      await registerTsx();
    } catch (error) {
      // tsx is a dependency of the package, so this means a broken install (or a bundle of the CLI without it).
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new ModuleImportError(`${label} is TypeScript but the tsx loader, a dependency of toolwright, could not be loaded (${why}); reinstall toolwright, or build ${label} to JavaScript`, 'no-loader', { cause: error });
    }
  }
  try {
    // .cjs and .cts files are CommonJS by definition. Imported while tsx's hooks are active, Node 20
    // runs their require('toolwright') (an ES module) through the ESM loader's CommonJS path, which
    // fails with "request for ... is not in cache" (ERR_VM_MODULE_LINK_FAILURE), under
    // `node --import tsx` too; required, they load.
    if (COMMONJS_EXTENSIONS.has(extname(path).toLowerCase())) return authoredNamespace({ default: createRequire(import.meta.url)(path) as unknown });
    return authoredNamespace((await import(pathToFileURL(path).href)) as Record<string, unknown>);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = needsEsm(error) ? await commonJsHint(path, label) : '';
    // esbuild's first line is only "Transform failed with 1 error:"; the line naming the file and the error says why.
    const lines = message.split('\n');
    const detail = lines.find((line) => line.includes(' ERROR: ')) ?? lines[0];
    throw new ModuleImportError(hint === '' ? message : `${hint} (${detail})`, 'load', { cause: error });
  }
}
