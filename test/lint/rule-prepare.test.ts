/** A rule's options are prepared once per lint run, and every check reads the prepared value. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lintTools, parseLintConfig } from '../../src/lint/index.js';
import type { LintRule } from '../../src/lint/index.js';

const tools = ['alpha', 'beta', 'gamma'].map((name) => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object' } }));

describe('LintRule.prepare', () => {
  it('runs once per lint run with the configured options; each tool check and the catalog check read its value', () => {
    let prepared = 0;
    const seen: string[] = [];
    const rule: LintRule<ReadonlySet<string>> = {
      id: 'test/banned-names',
      family: 'quality',
      defaultSeverity: 'warning',
      summary: 'test rule',
      defaultOptions: { names: [] },
      prepare(options) {
        prepared++;
        return new Set(options.names as string[]);
      },
      checkTool(tool, ctx) {
        seen.push(`${tool.name}:${ctx.prepared.size}`);
        if (ctx.prepared.has(tool.name)) ctx.report({ pointer: '/name', message: `${tool.name} is banned`, fix: 'Rename the tool.' });
      },
      checkCatalog(catalog, ctx) {
        seen.push(`catalog:${[...ctx.prepared].join(',')}`);
      },
    };
    const config = parseLintConfig({ rules: { 'test/banned-names': { options: { names: ['beta', 'delta'] } } } }, [rule]);
    const result = lintTools(tools, { rules: [rule], config });
    assert.equal(prepared, 1);
    assert.deepEqual(seen, ['alpha:2', 'beta:2', 'gamma:2', 'catalog:beta,delta']);
    assert.deepEqual(result.findings.map((f) => [f.tool, f.message]), [['beta', 'beta is banned']]);
  });

  it('a rule without prepare sees undefined', () => {
    const values: unknown[] = [];
    const rule: LintRule = { id: 'test/plain', family: 'quality', defaultSeverity: 'info', summary: 'test rule', checkTool: (_tool, ctx) => void values.push(ctx.prepared) };
    lintTools(tools.slice(0, 1), { rules: [rule] });
    assert.deepEqual(values, [undefined]);
  });
});
