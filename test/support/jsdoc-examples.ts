/**
 * The JSDoc `@example`s of the package, compiled (issue 28: "JSDoc whose examples compile"). An
 * example is a fenced TypeScript block (three backticks and `ts`) written as a whole module: it imports what it
 * uses from the package's public specifiers (`toolwright`, `toolwright/host`, ...), which resolve to
 * src/ here, and may use top-level `await`. Every example is type-checked as its own module with
 * the project's strict options; a diagnostic names the source file and the line of the example.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One `@example` found in a source file. */
export interface JsdocExample {
  /** The source file, relative to the root given to {@link findExamples}. */
  readonly file: string;
  /** 1-based line of the `@example` tag. */
  readonly line: number;
  /** The example's code (fence removed); undefined when the example is not one fenced `ts` block. */
  readonly code: string | undefined;
  /** The example as written, for messages. */
  readonly text: string;
}

const FENCED = /^```ts\n([\s\S]*?)\n```\s*$/;

/** Every `@example` of the `.ts` files under `dir` (recursively). */
export function findExamples(root: string, dir: string): JsdocExample[] {
  const found: JsdocExample[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    found.push(...examplesIn(relative(root, path), readFileSync(path, 'utf8')));
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The `@example`s of one file's text. */
export function examplesIn(file: string, source: string): JsdocExample[] {
  const examples: JsdocExample[] = [];
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const startLine = source.slice(0, comment.index).split('\n').length;
    const lines = comment[0].replace(/^\/\*\*/, '').replace(/\*\/$/, '').split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
    lines.forEach((line, index) => {
      const tag = /^\s*@example\b(.*)$/.exec(line);
      if (tag === null) return;
      const body = [tag[1]!.trim(), ...lines.slice(index + 1)];
      const end = body.findIndex((text, at) => at > 0 && /^\s*@\w/.test(text));
      const text = (end === -1 ? body : body.slice(0, end)).join('\n').trim();
      const fenced = FENCED.exec(text);
      examples.push({ file, line: startLine + index, code: fenced?.[1], text });
    });
  }
  return examples;
}

/** What compiling the examples found wrong: one line per diagnostic, naming the example. */
export function compileExamples(examples: readonly JsdocExample[], repoRoot: string): string[] {
  // Virtual files (never written): the compiler host serves their text.
  const scratchDir = join(repoRoot, '.cache', 'jsdoc-examples');
  const files = new Map<string, JsdocExample>();
  examples.forEach((example, index) => {
    if (example.code !== undefined) files.set(join(scratchDir, `example-${index}.ts`), example);
  });
  const src = (path: string) => join(repoRoot, 'src', path);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(repoRoot, 'node_modules', '@types')],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    // Each example is a module of its own, even without an import: its names stay its own and top-level `await` is legal.
    moduleDetection: ts.ModuleDetectionKind.Force,
    // Examples import the package by its public names; here they are the sources.
    paths: {
      toolwright: [src('index.ts')],
      'toolwright/console/web': [src('console/web/console-client.ts')],
      'toolwright/*': [src('*/index.ts')],
    },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (path) => files.get(path)?.code ?? readFile(path);
  host.fileExists = (path) => files.has(path) || fileExists(path);
  const program = ts.createProgram([...files.keys()], options, host);
  const problems: string[] = [];
  for (const [path, example] of files) {
    const sourceFile = program.getSourceFile(path);
    const diagnostics = sourceFile === undefined ? [] : [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    for (const diagnostic of diagnostics) {
      const at = diagnostic.file !== undefined && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
      problems.push(`${example.file}:${example.line} (@example line ${at}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
    }
  }
  return problems;
}
