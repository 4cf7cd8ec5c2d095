// The package as users get it: `npm pack` the repository, install the tarball into an empty
// temporary project, and use it only through what the package publishes: the README's adopter
// steps (a TypeScript tool file linted, called and served with the console, which needs neither an
// extra install of tsx nor a bundler), docs/getting-started.md as written, the `toolwright` bin,
// every documented entry point at run time, and their types under a strict `tsc` (skipLibCheck: the
// declarations are tsc's own output; what can break in a package is resolution through `exports`
// and the types reaching a consumer, and both are still checked).
//
// The tarball is packed with --ignore-scripts: `prepare` would rebuild dist/ while other test files
// run against it. dist/ is what `npm ci` built from the current sources (the test refuses to run
// against a dist/ older than src/). Dependencies install with --prefer-offline from npm's cache,
// which the repository's own `npm ci` has filled.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { estimateTokens } from '../../src/host/index.js';
import { REPO_ROOT, repoPath } from '../support/repo-paths.js';
import { readmeAdopterSteps } from './readme-adopter.js';

const run = promisify(execFile);
const project = mkdtempSync(join(tmpdir(), 'toolwright-pack-'));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** The bin npm linked for the installed package (what `npx toolwright` runs, without npx's start-up). */
const BIN = join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'toolwright.cmd' : 'toolwright');
let tarballFiles: string[] = [];
let tarballName = '';

interface Outcome { code: number; stdout: string; stderr: string }
async function inProject(command: string, args: string[], cwd = project): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const info = statSync(join(dir, name));
    if (info.isFile()) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

before(async () => {
  assert.ok(newestMtime(repoPath('dist')) >= newestMtime(repoPath('src')), 'dist/ is older than src/: run `npm run build` (npm ci does) before this test');
  const packed = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: REPO_ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  assert.ok(info, 'npm pack printed no package');
  tarballFiles = info.files.map((f) => f.path);
  tarballName = info.filename;
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'toolwright-pack-check', version: '1.0.0', private: true, type: 'module' }));
  const types = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@types/node'];
  const installed = await inProject(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${info.filename}`, `@types/node@${types}`]);
  assert.equal(installed.code, 0, installed.stderr);
});

after(() => rmSync(project, { recursive: true, force: true }));

const CONSUMER = `import { createServer, defineTool } from 'toolwright';
import { compileSchema, SchemaCompileError } from 'toolwright/schema';
import { connect, McpClientError } from 'toolwright/client';
import { estimateTokens, mapTools, type MappedCatalog } from 'toolwright/host';

const calculateSum = defineTool({
  name: 'calculate_sum',
  description: 'Add two integers and return their sum. Use for exact integer addition.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
    additionalProperties: false,
  } as const,
  run: ({ a, b }) => {
    const sum: number = a + b;
    // @ts-expect-error the arguments are typed from the schema: a is a number, not a string
    const wrong: string = a;
    void wrong;
    return { structuredContent: { sum } };
  },
});

const listener = await createServer({ name: 'calc', version: '1.0.0', tools: [calculateSum] }).listen({ port: 0, host: '127.0.0.1' });
const client = connect(listener.url);
try {
  const result = await client.callTool('calculate_sum', { a: 20, b: 22 });
  const badArguments = await client.callTool('calculate_sum', { a: 'x', b: 1 });
  const unknownTool = await client.callTool('no_such_tool', {}).then(() => 'resolved', (error: unknown) => error instanceof McpClientError ? \`McpClientError \${error.code}\` : String(error));
  const listing = await client.listTools();
  const catalog: MappedCatalog = mapTools(listing.tools, { provider: 'openai-chat' });
  const compiled = compileSchema({ type: 'string', maxLength: 2 });
  let compileError = '';
  try { compileSchema({ type: 'strin' }); } catch (error) { if (error instanceof SchemaCompileError) compileError = 'SchemaCompileError'; }
  console.log(JSON.stringify({
    structuredContent: result.structuredContent,
    badArgumentsIsError: badArguments.isError,
    unknownTool,
    mappedNames: catalog.tools.map((t) => [t.mcpName, t.providerName, t.strict]),
    tokens: estimateTokens({ name: 'calculate_sum' }),
    valid: [compiled.validate('ab').valid, compiled.validate('abc').valid],
    compileError,
  }));
} finally {
  await client.close();
  await listener.close();
}
`;

// The checks share the installed project but not files, so they run side by side.
/** The files docs/getting-started.md writes: each fenced block whose first line is `// file: <name>`. */
function guideFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const match of readFileSync(repoPath('docs/getting-started.md'), 'utf8').matchAll(/```\w*\n\/\/ file: (\S+)\n([\s\S]*?)```/g)) files.set(match[1]!, match[2]!);
  return files;
}

/**
 * Starts the installed bin as a long-running server in `cwd` and resolves with the console address
 * it prints; rejects when it exits first or prints none within 60 s. `stop` ends it by its pid.
 */
function startServing(args: string[], cwd: string): Promise<{ consoleUrl: string; stop: () => Promise<void> }> {
  const child = spawn(BIN, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`no console address within 60 s: ${stderr}`))), 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const consoleUrl = /^console: (\S+)$/m.exec(stderr)?.[1];
      if (consoleUrl === undefined) return;
      clearTimeout(timer);
      resolve({ consoleUrl, stop });
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`toolwright ${args.join(' ')} exited with ${String(code)} before printing the console address: ${stderr}`));
    });
  });
}

describe('the packed package in an empty project', { concurrency: true }, () => {
  test('docs/getting-started.md as written: lint, preview, tools --save, call over stdio, the agent, the desktop config', async () => {
    const guide = join(project, 'getting-started');
    mkdirSync(guide);
    const files = guideFiles();
    assert.deepEqual([...files.keys()], ['server.mjs', 'agent.mjs']);
    for (const [name, text] of files) writeFileSync(join(guide, name), text);
    const lint = await inProject(NPX, ['--no-install', 'toolwright', 'lint', 'server.mjs', '--format', 'json'], guide);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
    const { summary } = JSON.parse(lint.stdout) as { summary: { tools: number; errors: number } };
    assert.deepEqual([summary.tools, summary.errors], [1, 0]);
    const preview = await inProject(NPX, ['--no-install', 'toolwright', 'preview', 'server.mjs', '--provider', 'anthropic'], guide);
    assert.equal(preview.code, 0, preview.stderr);
    const saved = await inProject(NPX, ['--no-install', 'toolwright', 'tools', 'server.mjs', '--save', 'tools.json'], guide);
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual((JSON.parse(readFileSync(join(guide, 'tools.json'), 'utf8')) as { tools: Array<{ name: string }> }).tools.map((t) => t.name), ['calculate_sum']);
    const call = await inProject(NPX, ['--no-install', 'toolwright', 'call', '--stdio', 'npx --no-install toolwright serve server.mjs --stdio', 'calculate_sum', '{"a": 2, "b": 3}'], guide);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /"sum": 5/);
    const agent = await inProject(process.execPath, ['agent.mjs'], guide);
    assert.equal(agent.code, 0, agent.stderr);
    assert.equal(agent.stdout, '{"sum":5}\n');
    const config = /```json\n([\s\S]*?)```/.exec(readFileSync(repoPath('docs/getting-started.md'), 'utf8'))?.[1] ?? '';
    const desktop = (JSON.parse(config) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers['my-tools'];
    assert.deepEqual([desktop?.command.endsWith('/node_modules/.bin/toolwright'), desktop?.args[0], desktop?.args.at(-1)], [true, 'serve', '--stdio']);
  });


  test('the README\'s adopter steps with only the tarball installed: a TypeScript tool file linted, called, served with the console', async () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['@types/node', 'toolwright'], 'nothing but the package (and types for the tsc check) is installed');
    const steps = readmeAdopterSteps();
    assert.equal(steps.installs[0], `npm install ../toolwright/${tarballName}`, 'the README installs the tarball npm pack writes');
    const dir = join(project, 'adopter');
    mkdirSync(dir);
    writeFileSync(join(dir, steps.file), steps.text);
    assert.deepEqual(steps.commands.map((c) => c.split(' ').slice(0, 3).join(' ')), ['npx toolwright lint', 'npx toolwright call', 'npx toolwright serve']);
    const [lintLine, callLine, serveLine] = steps.commands as [string, string, string];
    const lint = await inProject('/bin/sh', ['-c', lintLine], dir);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
    assert.equal(lint.stdout, `toolwright lint: ${steps.file} (1 tool)\n\nNo problems found in 1 tool.\n`);
    const call = await inProject('/bin/sh', ['-c', callLine], dir);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /^Content:\n  \[text\] Hello, Ada!\n/m);
    assert.match(call.stdout, /^isError: false$/m);

    // As written, but on a free port: the README's 3001 may be taken.
    const serveArgs = serveLine.split(' ').slice(2);
    assert.deepEqual(serveArgs, ['serve', steps.file, '--http', '3001', '--console']);
    const served = await startServing(serveArgs.map((arg) => (arg === '3001' ? '0' : arg)), dir);
    try {
      const page = await fetch(served.consoleUrl, { signal: AbortSignal.timeout(30_000) });
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      const script = /<script type="module" src="([^"]+)"><\/script>/.exec(await page.text())?.[1] ?? '';
      assert.match(script, /^\/console\/assets\/workbench\.js\?token=/);
      const web = join(project, 'node_modules', 'toolwright', 'dist', 'console', 'web');
      for (const [asset, bundle] of [[script, 'workbench-page.bundle.js'], [script.replace('workbench', 'approvals'), 'approvals-page.bundle.js']] as const) {
        const response = await fetch(new URL(asset, served.consoleUrl), { signal: AbortSignal.timeout(30_000) });
        assert.equal(response.status, 200, asset);
        assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
        assert.equal(await response.text(), readFileSync(join(web, bundle), 'utf8'), `${asset} is the bundle built into the package`);
      }
    } finally {
      await served.stop();
    }
  });

  test('the tarball holds the built package and nothing from the repository\'s tests or sources', () => {
    for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/console/web/workbench-page.bundle.js', 'dist/console/web/approvals-page.bundle.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/schema/index.d.ts', 'dist/client/index.d.ts', 'dist/host/index.d.ts']) {
      assert.ok(tarballFiles.includes(file), `${file} is not in the tarball`);
    }
    assert.deepEqual(tarballFiles.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f)), []);
  });

  test('npx toolwright --help lists the commands', async () => {
    const help = await inProject(NPX, ['--no-install', 'toolwright', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: toolwright <command> \[options\]/);
    for (const command of ['call', 'lint', 'preview', 'serve']) assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));
  });

  test('the installed toolwright bin lints: a good tools.json passes and fails a bad one, naming the rule', async () => {
    copyFileSync(repoPath('test/fixtures/lint/seed-good.json'), join(project, 'tools.json'));
    const good = await inProject(BIN, ['lint', 'tools.json', '--format', 'json']);
    assert.equal(good.code, 0, good.stderr);
    assert.equal((JSON.parse(good.stdout) as { summary: { tools: number } }).summary.tools, 5);
    writeFileSync(join(project, 'bad.json'), JSON.stringify({ tools: [{ name: 'do stuff', inputSchema: { type: 'object' } }] }));
    const bad = await inProject(BIN, ['lint', 'bad.json', '--format', 'json']);
    assert.equal(bad.code, 1, bad.stderr);
    const findings = (JSON.parse(bad.stdout) as { findings: Array<{ ruleId: string; severity: string }> }).findings;
    assert.ok(findings.some((f) => f.ruleId === 'spec/name-format' && f.severity === 'error'), JSON.stringify(findings));
  });

  test('every documented entry point type-checks under strict tsc and works at run time', async () => {
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] },
      files: ['consumer.ts'],
    }));
    const tsc = await inProject(process.execPath, [repoPath('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
    assert.equal(tsc.code, 0, tsc.stdout + tsc.stderr);
    const consumer = await inProject(process.execPath, ['out/consumer.js']);
    assert.equal(consumer.code, 0, consumer.stderr);
    assert.deepEqual(JSON.parse(consumer.stdout), {
      structuredContent: { sum: 42 },
      badArgumentsIsError: true,
      unknownTool: 'McpClientError -32602',
      mappedNames: [['calculate_sum', 'calculate_sum', true]],
      tokens: estimateTokens({ name: 'calculate_sum' }),
      valid: [true, false],
      compileError: 'SchemaCompileError',
    });
  });
});
