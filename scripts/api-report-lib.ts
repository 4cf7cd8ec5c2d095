/**
 * The API report (issue 28 step 6): per package entry point, every exported name with the
 * declaration a user compiles against, as TypeScript's declaration emitter writes it (bodies and
 * private members gone, comments removed), sorted by name. The reports are committed under
 * docs/api-report/; a change to the public types shows up as a diff there, so it is reviewed.
 * `npm run api:report` rewrites them; test/docs/api-report.test.ts fails while they are stale.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One entry point of package.json `exports`: its subpath and source file. */
export interface EntryPoint {
  /** The specifier users import: `toolwright`, `toolwright/schema`, ... */
  readonly specifier: string;
  /** The source file, absolute. */
  readonly source: string;
  /** The report's file name under docs/api-report/. */
  readonly reportName: string;
}

/** The entry points package.json exports, mapped from dist/ back to src/. */
export function entryPointsOf(repoRoot: string): EntryPoint[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; exports: Record<string, { default: string }> };
  return Object.entries(manifest.exports).map(([subpath, target]) => {
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    const source = join(repoRoot, target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
    return { specifier, source, reportName: `${specifier.replace(/\//g, '.')}.api.md` };
  });
}

function buildOptions(repoRoot: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.build.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
    },
  });
  if (parsed === undefined) throw new Error('tsconfig.build.json could not be read');
  return { ...parsed.options, declaration: true, emitDeclarationOnly: true, removeComments: true, noEmit: false, sourceMap: false, declarationMap: false, incremental: false, tsBuildInfoFile: undefined };
}

/** The top-level statements of a declaration file that declare `name` (overloads and merged declarations included). */
function declarationsNamed(file: ts.SourceFile, name: string): string[] {
  const texts: string[] = [];
  for (const statement of file.statements) {
    const declared = ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.map((d) => d.name.getText(file))
      : 'name' in statement && statement.name !== undefined && ts.isIdentifier(statement.name as ts.Node) ? [(statement.name as ts.Identifier).text] : [];
    if (declared.includes(name)) texts.push(statement.getText(file).replace(/^export (declare )?/, '').replace(/^declare /, ''));
  }
  return texts;
}

/** The reports of every entry point, by report file name. */
export function buildApiReports(repoRoot: string): Map<string, string> {
  const entries = entryPointsOf(repoRoot);
  const options = buildOptions(repoRoot);
  const program = ts.createProgram(entries.map((e) => e.source), options);
  const emitted = new Map<string, ts.SourceFile>();
  const result = program.emit(undefined, (fileName, text) => {
    if (fileName.endsWith('.d.ts')) emitted.set(fileName, ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true));
  });
  const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(`the package does not compile: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, ' ')}`);
  const outDir = options.outDir ?? join(repoRoot, 'dist');
  const rootDir = options.rootDir ?? join(repoRoot, 'src');
  const declarationFileOf = (source: string) => emitted.get(join(outDir, relative(rootDir, source)).replace(/\.ts$/, '.d.ts'));
  const checker = program.getTypeChecker();
  const reports = new Map<string, string>();
  for (const entry of entries) {
    const sourceFile = program.getSourceFile(entry.source);
    const moduleSymbol = sourceFile === undefined ? undefined : checker.getSymbolAtLocation(sourceFile);
    if (moduleSymbol === undefined) throw new Error(`${entry.source} is not a module`);
    const lines: string[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name))) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const texts = (target.declarations ?? []).flatMap((declaration) => {
        const emittedFile = declarationFileOf(declaration.getSourceFile().fileName);
        return emittedFile === undefined ? [] : declarationsNamed(emittedFile, target.name);
      });
      const unique = [...new Set(texts)];
      const heading = target.name === exported.name ? exported.name : `${exported.name} (declared as ${target.name})`;
      lines.push(`// ${heading}`, ...(unique.length > 0 ? unique : ['// (no declaration text: re-exported from a dependency)']), '');
    }
    const body = [`# API report: \`${entry.specifier}\``, '', `Generated by \`npm run api:report\` from \`${relative(repoRoot, entry.source)}\`; do not edit. A diff here is a change to the public types.`, '', '```ts', ...lines, '```', ''].join('\n');
    reports.set(entry.reportName, body);
  }
  return reports;
}
