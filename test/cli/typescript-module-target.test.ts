/**
 * `toolwright serve|lint|preview <file.ts>` for a TypeScript module in a user's own folder, whatever
 * its package.json says: written as the README writes it (ESM `import ... from 'toolwright'`), in
 * a folder outside the repository where `toolwright` is installed (a node_modules link to this
 * checkout, as `npm install` would leave it) or imported by the built file's path.
 *
 * The CLI runs from src/ under tsx's ESM hooks only (`tsx/esm`), which is what the CLI's own files
 * need and all that the built bin has: `--import tsx` would also install tsx's CommonJS hooks
 * before the CLI starts and hide the defect this file covers (the CLI must register them itself).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { rpc } from '../fixtures/servers/raw-http.js';
import { REPO_ROOT, repoPath } from '../support/repo-paths.js';
import { runCli } from '../support/run-cli.js';
import type { CliRun } from '../support/run-cli.js';

const TSX_ESM_ONLY = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
const root = mkdtempSync(join(tmpdir(), 'toolwright-ts-target-'));

const cli = (cwd: string, args: string[], input = ''): Promise<CliRun> => runCli(args, { cwd, loader: TSX_ESM_ONLY, input });

/** The README's first example, exported for the CLI instead of listening itself. */
function readmeTool(from: string, extra = ''): string {
  return `import { defineTool, createServer } from ${JSON.stringify(from)};

const calculateSum = defineTool({
  name: 'calculate_sum',
  description: 'Add two integers and return their sum. Use for exact integer addition.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
    additionalProperties: false,
  } as const,
  run: ({ a, b }) => ({ structuredContent: { sum: a + b } }),
});
${extra}
export default createServer({ name: 'calc', version: '1.0.0', tools: [calculateSum] });
`;
}

/** A folder with this package.json (undefined: none's `type`), `toolwright` installed, and files. */
function folder(name: string, packageJson: Record<string, unknown>, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'toolwright'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...packageJson }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const DIST = pathToFileURL(repoPath('dist', 'index.js')).href;
const TLA = 'await Promise.resolve();\n';
let commonjs = '';
let untyped = '';
let esm = '';

before(() => {
  // 'toolwright' resolves through package.json exports to dist/, which `npm ci` builds (prepare).
  assert.ok(existsSync(repoPath('dist', 'index.js')), 'dist/ is missing: run `npm ci` or `npm run build` first');
  const files = {
    'w.ts': readmeTool('toolwright'), 'dist-path.ts': readmeTool(DIST), 'w.mts': readmeTool('toolwright'), 'w.cts': readmeTool('toolwright'),
    'tla.ts': readmeTool('toolwright', TLA), 'tla.mts': readmeTool('toolwright', TLA), 'tla.cts': readmeTool('toolwright', TLA),
  };
  commonjs = folder('cjs', { type: 'commonjs' }, files); // what `npm init -y` writes
  untyped = folder('untyped', {}, files);
  esm = folder('esm', { type: 'module' }, files);
});

after(() => rmSync(root, { recursive: true, force: true }));

describe('a TypeScript module target loads whatever its package type', () => {
  const loads: [string, () => string, string][] = [
    ['"type": "commonjs", .ts importing toolwright by name', () => commonjs, 'w.ts'],
    ['"type": "commonjs", .ts importing the built dist by path', () => commonjs, 'dist-path.ts'],
    ['no "type" field, .ts', () => untyped, 'w.ts'],
    ['no "type" field, .ts importing the built dist by path', () => untyped, 'dist-path.ts'],
    ['"type": "module", .ts', () => esm, 'w.ts'],
    ['"type": "commonjs", .mts', () => commonjs, 'w.mts'],
    ['"type": "commonjs", .cts', () => commonjs, 'w.cts'],
    ['"type": "module", .cts', () => esm, 'w.cts'],
    ['"type": "module", .ts with top-level await', () => esm, 'tla.ts'],
    ['"type": "commonjs", .mts with top-level await', () => commonjs, 'tla.mts'],
  ];
  for (const [name, dir, file] of loads) {
    it(`lint: ${name}`, async () => {
      const run = await cli(dir(), ['lint', file]);
      assert.equal(run.stderr, '');
      assert.equal(run.code, 0);
      assert.match(run.stdout, new RegExp(`^toolwright lint: ${file.replace('.', '\\.')} \\(1 tool\\)\\n\\ncalculate_sum\\n`));
    });
  }

  it('serve: a .ts file in a "type": "commonjs" folder answers a tools/call over stdio', async () => {
    const line = JSON.stringify(rpc('tools/call', { name: 'calculate_sum', arguments: { a: 20, b: 22 } }));
    const run = await cli(commonjs, ['serve', 'w.ts', '--stdio'], `${line}\n`);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as { result: { structuredContent: unknown } }).result.structuredContent, { sum: 42 });
    assert.match(run.stderr, /^toolwright: serving 1 tool\(s\) of calc on stdio\n/);
  });

  it('preview: a .ts file in a folder with no "type" field', async () => {
    const run = await cli(untyped, ['preview', 'w.ts', '--provider', 'openai-chat']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Provider: OpenAI Chat Completions \(openai-chat\)\n\n■ calculate_sum /);
  });
});

describe('a TypeScript module that only an ES module can run says what to change', () => {
  const detail = (dir: string, file: string): string => `(${join(dir, file)}:14:0: ERROR: Top-level await is currently not supported with the "cjs" output format)`;

  it('"type": "commonjs": add "type": "module" or rename to .mts (lint, serve, preview)', async () => {
    const reason = `tla.ts runs as CommonJS because ${join(commonjs, 'package.json')} has "type": "commonjs"; add "type": "module" to ${join(commonjs, 'package.json')}, or rename the file to .mts ${detail(commonjs, 'tla.ts')}`;
    const lint = await cli(commonjs, ['lint', 'tla.ts']);
    assert.equal(lint.code, 2);
    assert.equal(lint.stderr, `toolwright lint: cannot load module tla.ts: ${reason}\n`);
    const serve = await cli(commonjs, ['serve', 'tla.ts', '--stdio']);
    assert.equal(serve.code, 2);
    assert.match(serve.stderr, new RegExp(`^toolwright serve: cannot load tla\\.ts: ${reason.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\n`));
    const preview = await cli(commonjs, ['preview', 'tla.ts', '--provider', 'anthropic']);
    assert.equal(preview.code, 2);
    assert.equal(preview.stderr, `toolwright preview: cannot load module tla.ts: ${reason}\n`);
  });

  it('no "type" field: says the field is missing', async () => {
    const run = await cli(untyped, ['lint', 'tla.ts']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, `toolwright lint: cannot load module tla.ts: tla.ts runs as CommonJS because ${join(untyped, 'package.json')} has no "type" field; add "type": "module" to ${join(untyped, 'package.json')}, or rename the file to .mts ${detail(untyped, 'tla.ts')}\n`);
  });

  it('.cts: rename to .mts (package.json cannot change a .cts file)', async () => {
    const run = await cli(esm, ['lint', 'tla.cts']);
    assert.equal(run.code, 2);
    // esbuild names the file as tsx hands it over: tla.ts for tla.cts.
    assert.equal(run.stderr, `toolwright lint: cannot load module tla.cts: tla.cts is a .cts file, which always runs as CommonJS; rename it to .mts to run it as an ES module ${detail(esm, 'tla.ts')}\n`);
  });
});
