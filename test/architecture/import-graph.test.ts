/**
 * The layering of `src/`, checked from the code: every relative import between top-level folders
 * must follow the dependency rules of docs/architecture.md ("Dependencies point downward only"),
 * no two top-level folders may import each other (directly or around a loop), and inside
 * `src/server/` every import points down its folder order (SERVER_LAYERS), the few files directly
 * in `src/server/` being its floor (imported by all, importing no folder) or its roof. A file
 * directly in a folder counts as a node of its own in the cycle check, so no loop can hide in them.
 * The same for the robot package's folders (packages/robot-arm/, "The robot package's layers");
 * its imports from outside the package are checked by its own test/server/public-api.test.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/repo-paths.js';

const SRC = join(REPO_ROOT, 'src');

/** What each top-level folder may import (besides itself). Files directly in src/ are the entry points. */
const ALLOWED: Record<string, readonly string[]> = {
  json: [],
  text: [],
  errors: [],
  schema: ['json'],
  protocol: ['schema', 'json'],
  transport: ['protocol', 'schema'],
  host: ['protocol', 'schema'],
  client: ['transport', 'protocol', 'schema'],
  lint: ['host', 'protocol', 'schema'],
  diff: ['lint', 'host', 'protocol', 'schema'],
  eval: ['diff', 'lint', 'host', 'client', 'protocol', 'schema'],
  server: ['transport', 'protocol', 'schema'],
  console: ['server', 'transport', 'lint', 'host', 'protocol', 'schema'],
  compose: ['server', 'client', 'transport', 'lint', 'host', 'protocol', 'schema'],
  cli: ['compose', 'console', 'server', 'client', 'eval', 'diff', 'lint', 'host', 'transport', 'protocol', 'schema'],
};

/** Single-file exceptions, each explained in docs/architecture.md. */
const EXCEPTIONS: readonly string[] = [
  // The linter applies the very checks the server applies at registration.
  'lint/rules/spec/definition.ts -> server/tools/tool-definition-rules.ts',
  // A budget in tokens means the same in preview, lint and the server.
  'server/middleware/result-budget/index.ts -> host/token-estimate.ts',
  // search_tools' budget is counted by the same counter (docs/compose.md, "Large catalogs: search").
  'server/search/search-tools.ts -> host/token-estimate.ts',
];

/**
 * The folders of src/server/, bottom first: each may import only folders before it (docs/architecture.md,
 * "Inside the server"). Files directly in src/server/ are either the floor (FLOOR: the error table, the
 * logger interface, the eras; any server file may import them and they import no server file) or the
 * roof (ROOF: the entry and createServer, which may import everything and which nothing below imports).
 */
const SERVER_LAYERS: readonly string[] = [
  'files', 'store', 'contract', 'audit', 'tasks', 'auth', 'approvals', 'tools', 'middleware', 'features',
  'catalog', 'search', 'stages', 'pipeline', 'routes', 'legacy', 'era-router', 'setup',
];
const SERVER_FLOOR: readonly string[] = ['outcomes.ts', 'server-logger.ts', 'eras.ts'];
const SERVER_ROOF: readonly string[] = ['index.ts', 'create-server.ts'];

interface Edge {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(dir: string, skip: readonly string[] = [], out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) sourceFiles(path, skip, out);
    } else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Every relative import under `root` (folders named in `skip` left out), as paths relative to it with .ts endings. */
function imports(root = SRC, skip: readonly string[] = []): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(root, skip)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)) {
      const target = resolve(dirname(file), match[1] as string).replace(/\.js$/, '.ts');
      edges.push({ from: relative(root, file), to: relative(root, target) });
    }
  }
  return edges;
}

/** The folder of a path at `depth` below `base` ('' for a file directly in it). */
function folderOf(path: string, base: string): string | undefined {
  if (base !== '' && !path.startsWith(`${base}/`)) return undefined;
  const parts = path.slice(base === '' ? 0 : base.length + 1).split('/');
  return parts.length > 1 ? (parts[0] as string) : '';
}

/** Pairs of folders that reach each other (strongly connected), as `a <-> b` for every pair in a component. */
function cycles(edges: readonly Edge[], base: string): string[] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = folderOf(from, base);
    const b = folderOf(to, base);
    if (a === undefined || b === undefined) continue;
    // A file directly in the base folder is a node of its own: a loop through it is a loop.
    const nodeA = a === '' ? from : a;
    const nodeB = b === '' ? to : b;
    if (nodeA === nodeB) continue;
    if (!graph.has(nodeA)) graph.set(nodeA, new Set());
    graph.get(nodeA)?.add(nodeB);
  }
  const reaches = (a: string, b: string): boolean => {
    const seen = new Set<string>();
    const stack = [a];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      for (const c of graph.get(next) ?? []) {
        if (c === b) return true;
        if (!seen.has(c)) {
          seen.add(c);
          stack.push(c);
        }
      }
    }
    return false;
  };
  const found: string[] = [];
  const nodes = [...graph.keys()].sort();
  // Two files directly in the base folder that import each other are one folder's own business.
  const isFile = (node: string): boolean => node.endsWith('.ts');
  for (const [i, a] of nodes.entries()) for (const b of nodes.slice(i + 1)) if (!(isFile(a) && isFile(b)) && reaches(a, b) && reaches(b, a)) found.push(`${a} <-> ${b}`);
  return found;
}

/** Imports inside src/server/ that break its order (SERVER_LAYERS, floor and roof), each with the rule it breaks. */
function serverOrderViolations(edges: readonly Edge[]): string[] {
  const wrong: string[] = [];
  const rank = (folder: string): number => SERVER_LAYERS.indexOf(folder);
  for (const { from, to } of edges) {
    const a = folderOf(from, 'server');
    const b = folderOf(to, 'server');
    if (a === undefined || b === undefined) continue;
    const fileA = from.slice('server/'.length);
    const fileB = to.slice('server/'.length);
    if (a === '' && b === '') {
      if (SERVER_FLOOR.includes(fileA) && !SERVER_FLOOR.includes(fileB)) wrong.push(`${from} -> ${to} (the floor imports no other server file)`);
      else if (!SERVER_FLOOR.includes(fileA) && !SERVER_ROOF.includes(fileA)) wrong.push(`${from} (a file directly in server/ must be in SERVER_FLOOR or SERVER_ROOF)`);
      else if (fileB === 'index.ts') wrong.push(`${from} -> ${to} (nothing imports the entry)`);
      continue;
    }
    if (a === '') {
      if (SERVER_FLOOR.includes(fileA)) wrong.push(`${from} -> ${to} (the floor imports no server folder)`);
      else if (!SERVER_ROOF.includes(fileA)) wrong.push(`${from} (a file directly in server/ must be in SERVER_FLOOR or SERVER_ROOF)`);
      continue;
    }
    if (rank(a) < 0) {
      wrong.push(`${from} (server/${a}/ is not in SERVER_LAYERS: give it its place)`);
      continue;
    }
    if (b === '') {
      if (!SERVER_FLOOR.includes(fileB)) wrong.push(`${from} -> ${to} (a folder imports only the floor of server/, never ${fileB})`);
      continue;
    }
    if (a !== b && !(rank(b) >= 0 && rank(b) < rank(a))) wrong.push(`${from} -> ${to} (server/${a}/ may import only folders below it: ${SERVER_LAYERS.slice(0, rank(a)).join(', ') || 'none'})`);
  }
  return [...new Set(wrong)];
}

describe('the checks themselves', () => {
  it('find a loop that runs through a file directly in a folder', () => {
    const planted: Edge[] = [
      { from: 'server/stages/a.ts', to: 'server/glue.ts' },
      { from: 'server/glue.ts', to: 'server/tools/b.ts' },
      { from: 'server/tools/b.ts', to: 'server/stages/c.ts' },
    ];
    assert.deepEqual(cycles(planted, 'server'), ['server/glue.ts <-> stages', 'server/glue.ts <-> tools', 'stages <-> tools']);
  });

  it('refuse an upward import, a folder outside the order, and loose files that are neither floor nor roof', () => {
    const planted: Edge[] = [
      { from: 'server/contract/tool-types.ts', to: 'server/middleware/audit/index.ts' },
      { from: 'server/stages/shape.ts', to: 'server/tools/tool-registry.ts' },
      { from: 'server/newfolder/x.ts', to: 'server/store/store.ts' },
      { from: 'server/glue.ts', to: 'server/outcomes.ts' },
      { from: 'server/outcomes.ts', to: 'server/store/store.ts' },
      { from: 'server/tools/define-tool.ts', to: 'server/create-server.ts' },
    ];
    assert.deepEqual(serverOrderViolations(planted), [
      'server/contract/tool-types.ts -> server/middleware/audit/index.ts (server/contract/ may import only folders below it: files, store)',
      'server/newfolder/x.ts (server/newfolder/ is not in SERVER_LAYERS: give it its place)',
      'server/glue.ts (a file directly in server/ must be in SERVER_FLOOR or SERVER_ROOF)',
      'server/outcomes.ts -> server/store/store.ts (the floor imports no server folder)',
      'server/tools/define-tool.ts -> server/create-server.ts (a folder imports only the floor of server/, never create-server.ts)',
    ]);
  });
});

describe('import graph of src/', () => {
  const edges = imports();

  it('finds the imports it checks', () => {
    assert.ok(edges.length > 500, `only ${edges.length} imports found: the scanner is broken`);
  });

  it('every import between top-level folders points downward', () => {
    const wrong: string[] = [];
    for (const { from, to } of edges) {
      const a = folderOf(from, '');
      const b = folderOf(to, '');
      if (a === undefined || b === undefined || a === '' || a === b) continue;
      if (b === '') {
        wrong.push(`${from} -> ${to} (an entry point of src/ imported from inside)`);
        continue;
      }
      // json/, text/ and errors/ are the leaves every layer may use (canonical JSON, JSON text, isJsonObject; name similarity; the error base classes).
      if (b === 'json' || b === 'text' || b === 'errors' || (ALLOWED[a] ?? []).includes(b) || EXCEPTIONS.includes(`${from} -> ${to}`)) continue;
      wrong.push(`${from} -> ${to} (${a} may import ${(ALLOWED[a] ?? []).join(', ') || 'nothing'})`);
    }
    assert.deepEqual(wrong, []);
  });

  it('no two top-level folders import each other', () => {
    assert.deepEqual(cycles(edges, ''), []);
  });

  it('no two folders of src/server/ import each other (files directly in it counted as nodes)', () => {
    assert.deepEqual(cycles(edges, 'server'), []);
  });

  it('no two folders of any folder of src/ import each other (files directly in it counted as nodes)', () => {
    const bases = new Set<string>();
    for (const { from } of edges) {
      const parts = from.split('/');
      for (let i = 1; i < parts.length - 1; i++) bases.add(parts.slice(0, i).join('/'));
    }
    assert.ok(bases.has('server/middleware') && bases.has('compose'), 'the folder scan is broken');
    assert.deepEqual([...bases].sort().flatMap((base) => cycles(edges, base).map((cycle) => `${base}: ${cycle}`)), []);
  });

  it('every import inside src/server/ points down its folder order', () => {
    const folders = new Set(edges.map((e) => folderOf(e.from, 'server')).filter((f): f is string => f !== undefined && f !== ''));
    assert.deepEqual([...folders].filter((f) => !SERVER_LAYERS.includes(f)).sort(), [], 'a folder of src/server/ missing from SERVER_LAYERS');
    assert.deepEqual(serverOrderViolations(edges), []);
  });

  it('the legacy wire is reached only through its index', () => {
    const inside = (path: string) => path.startsWith('server/legacy/');
    const wrong = edges.filter((e) => !inside(e.from) && inside(e.to) && e.to !== 'server/legacy/index.ts').map((e) => `${e.from} -> ${e.to}`);
    assert.deepEqual(wrong, []);
  });
});

const ROBOT = join(REPO_ROOT, 'packages', 'robot-arm');

/**
 * What each folder of the robot package may import (besides itself), bottom-up. Its top files
 * (main.ts, server.ts, index.ts, start-banner.ts) and bench/ may import any folder; no folder imports them.
 */
const ROBOT_ALLOWED: Record<string, readonly string[]> = {
  sim: [],
  model: ['sim'],
  driver: ['model', 'sim'],
  view: ['driver', 'model'],
  server: ['view', 'driver', 'model'],
  controller: ['server', 'driver', 'model', 'sim'],
  console: ['server', 'view', 'driver', 'model'],
  wiring: ['server', 'driver', 'model'],
};
/** Folders above every layer, like the top files: scripts that use the package. */
const ROBOT_TOP_FOLDERS = ['bench'];

/** Imports between the robot package's folders that do not point downward, as `from -> to (why)`. */
function robotLayerViolations(edges: readonly Edge[]): string[] {
  const wrong: string[] = [];
  for (const { from, to } of edges) {
    const a = folderOf(from, '');
    const b = folderOf(to, '');
    if (a === undefined || b === undefined || a === b || a === '' || ROBOT_TOP_FOLDERS.includes(a)) continue;
    if (b === '' || ROBOT_TOP_FOLDERS.includes(b)) wrong.push(`${from} -> ${to} (the top of the package, imported from ${a}/)`);
    else if (ROBOT_ALLOWED[a] === undefined) wrong.push(`${from} -> ${to} (${a}/ is a folder the layering does not name)`);
    else if (!ROBOT_ALLOWED[a].includes(b)) wrong.push(`${from} -> ${to} (${a} may import ${ROBOT_ALLOWED[a].join(', ') || 'nothing'})`);
  }
  return wrong;
}

describe('import graph of packages/robot-arm/', () => {
  // Tests may import any folder; node_modules holds links, not the package's code.
  const edges = imports(ROBOT, ['test', 'node_modules', '.data']);

  it('finds the imports it checks', () => {
    assert.ok(edges.length > 300, `only ${edges.length} imports found: the scanner is broken`);
  });

  it('every import between its folders points downward (sim, model, driver, view, server, controller, console, wiring)', () => {
    assert.deepEqual(robotLayerViolations(edges), []);
  });

  it('no two of its folders import each other', () => {
    assert.deepEqual(cycles(edges, ''), []);
  });

  it('the checks refuse a planted upward import, an unnamed folder, an import of the top, and a cycle', () => {
    const planted: Edge[] = [
      { from: 'sim/robot-simulation.ts', to: 'model/arm-model.ts' },
      { from: 'model/arm-model.ts', to: 'sim/vector3.ts' },
      { from: 'server/create-robot-server.ts', to: 'console/arm-app.ts' },
      { from: 'console/robot-arm-feed.ts', to: 'server/create-robot-server.ts' },
      { from: 'extras/helper.ts', to: 'model/arm-model.ts' },
      { from: 'wiring/simulated-robot-server.ts', to: 'main.ts' },
      { from: 'main.ts', to: 'console/arm-console.ts' },
      { from: 'bench/controller-stall.ts', to: 'controller/remote-arm-driver.ts' },
    ];
    assert.deepEqual(robotLayerViolations(planted), [
      'sim/robot-simulation.ts -> model/arm-model.ts (sim may import nothing)',
      'server/create-robot-server.ts -> console/arm-app.ts (server may import view, driver, model)',
      'extras/helper.ts -> model/arm-model.ts (extras/ is a folder the layering does not name)',
      'wiring/simulated-robot-server.ts -> main.ts (the top of the package, imported from wiring/)',
    ]);
    assert.deepEqual(cycles(planted, ''), ['console <-> server', 'model <-> sim']);
  });
});
