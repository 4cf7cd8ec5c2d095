import type { SchemaError } from '../../../schema/index.js';
import { oneShotValidator } from '../../schema-validity.js';
import { isObject } from '../../tool-view.js';
import { forEachSchemaNode } from '../schema-nodes.js';
import type { LintRule, RuleContext, ToolView } from '../../types.js';

/**
 * Compiles one subschema on its own. `$defs`/`definitions` and `$schema` of the document root are
 * carried over so local `#/$defs/...` references still resolve; a subschema that cannot stand
 * alone (a reference to some other part of the document) is skipped: `spec/schema-valid` already
 * judges the document as a whole.
 */
function compileSubschema(root: Record<string, unknown>, sub: Record<string, unknown>): ((value: unknown) => SchemaError[]) | undefined {
  const standalone: Record<string, unknown> = { ...sub };
  for (const key of ['$schema', '$defs', 'definitions'] as const) {
    if (root[key] !== undefined && standalone[key] === undefined) standalone[key] = root[key];
  }
  return oneShotValidator(standalone);
}

function strip(sub: Record<string, unknown>): Record<string, unknown> {
  // default/examples are annotations; leaving them in would not change validation, but keeps the copy honest.
  const { default: _default, examples: _examples, ...rest } = sub;
  return rest;
}

function check(tool: ToolView, ctx: RuleContext, keyword: 'default' | 'examples'): void {
  forEachSchemaNode(tool.descriptor, ({ schema, pointer }) => {
    if (!Object.prototype.hasOwnProperty.call(schema, keyword)) return;
    const field = pointer.startsWith('/inputSchema') ? 'inputSchema' : 'outputSchema';
    const root = tool.descriptor[field];
    if (!isObject(root)) return;
    const values: unknown[] = keyword === 'default' ? [schema.default] : Array.isArray(schema.examples) ? schema.examples : [];
    if (keyword === 'examples' && !Array.isArray(schema.examples)) {
      ctx.report({ pointer: `${pointer}/examples`, message: '"examples" must be an array of example values', fix: 'write "examples": [value, ...]' });
      return;
    }
    if (values.length === 0) return;
    const compiled = compileSubschema(root, strip(schema));
    if (compiled === undefined) return;
    values.forEach((value, i) => {
      const errors = compiled(value);
      if (errors.length === 0) return;
      const first = errors[0];
      const at = keyword === 'default' ? `${pointer}/default` : `${pointer}/examples/${i}`;
      ctx.report({
        pointer: at,
        message: `${keyword === 'default' ? 'default' : `example #${i}`} ${JSON.stringify(value)} does not match its own schema: ${first?.message ?? 'invalid'}`,
        fix: keyword === 'default' ? 'change the default to a value the schema accepts (the model and the server both use it)' : 'fix or remove the example; a wrong example teaches the model a wrong call',
      });
    });
  });
}

/** `default` values are valid against the schema they sit in. */
export const defaultValid: LintRule = {
  id: 'spec/default-valid',
  family: 'spec',
  defaultSeverity: 'error',
  summary: '`default` values are valid against their own schema.',
  checkTool: (tool, ctx) => check(tool, ctx, 'default'),
};

/** `examples` values are valid against the schema they sit in. */
export const examplesValid: LintRule = {
  id: 'spec/examples-valid',
  family: 'spec',
  defaultSeverity: 'error',
  summary: '`examples` values are valid against their own schema.',
  checkTool: (tool, ctx) => check(tool, ctx, 'examples'),
};
