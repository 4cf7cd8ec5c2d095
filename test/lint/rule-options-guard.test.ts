/**
 * Built-in rules read their options only in `prepare` (once per run, as typed values), never from
 * `ctx.options` in a check (once per tool, as untyped values). A source scan of src/lint/rules/
 * over the TypeScript syntax tree, so `.options` inside a string or comment does not count.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { REPO_ROOT, repoPath } from '../support/repo-paths.js';

/**
 * Every read of a property named `options` in one source file: `x.options`, `x?.options`,
 * `x['options']` and `{ options } = x` (parameters too). A rule's `prepare` and `validateOptions`
 * receive the options as a parameter, so they never need one.
 */
function optionsReads(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node): string => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source)}`;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'options') found.push(at(node));
    else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'options') found.push(at(node));
    else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = node.propertyName ?? node.name;
      if ((ts.isIdentifier(key) || ts.isStringLiteralLike(key)) && key.text === 'options') found.push(at(node.parent));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('rule options are read in prepare only', () => {
  it('no file of src/lint/rules/ reads .options', () => {
    const files = sourceFiles(repoPath('src/lint/rules'));
    assert.ok(files.length >= 20, `expected the rule files, found ${files.length}`);
    const reads = files.flatMap((path) => optionsReads(relative(REPO_ROOT, path), readFileSync(path, 'utf8')));
    assert.deepEqual(reads, [], 'read the option in the rule\'s prepare (see optionsOfDefaults) and use ctx.prepared in the check');
  });

  it('the scan finds a planted read in any form, and not the word in a string or comment or a prepare parameter', () => {
    const planted = [
      "import type { LintRule } from '../../types.js';",
      'export const planted: LintRule = {',
      "  id: 'test/planted', family: 'quality', defaultSeverity: 'warning', summary: 'planted',",
      "  defaultOptions: { max: 3 },",
      '  prepare: (options) => options.max, // reads ctx.options? no: only the parameter',
      '  checkTool(tool, ctx) {',
      '    const max = Number(ctx.options.max);',
      "    const again = ctx?.['options'];",
      '    const { options } = ctx;',
      "    ctx.report({ pointer: '', message: `over ${max}`, fix: 'see rules.\"x\".options.max' });",
      '  },',
      '  checkCatalog(catalog, { options: settings, report }) {},',
      '};',
    ].join('\n');
    assert.deepEqual(optionsReads('planted.ts', planted), [
      'planted.ts:7: ctx.options',
      "planted.ts:8: ctx?.['options']",
      'planted.ts:9: { options }',
      'planted.ts:12: { options: settings, report }',
    ]);
  });
});
