import { isJsonObject } from '../../../json/json-object.js';
import { checkToolDefinition } from '../../../server/tools/tool-definition-rules.js';
import type { DefinitionProblem } from '../../../server/tools/tool-definition-rules.js';
import type { ToolDescriptor } from '../../../protocol/wire-types.js';
import { findSchemaProblem } from '../../schema-validity.js';
import { childPointer } from '../../tool-view.js';
import type { LintRule, RuleContext, ToolView } from '../../types.js';

/**
 * The spec's definition rules are the server's own registration checks: `checkToolDefinition`
 * (name, root `type: "object"`, `x-mcp-header` annotations) and the schema engine's validity
 * checks. The server compiles validators as part of its check; the linter only needs the verdict,
 * so it calls `checkToolDefinition` with `compile: false` and gets schema validity from the
 * engine's check-only path (see ../../schema-validity.ts). Each problem code maps to one lint
 * rule id so the rules can be configured separately. Computed once per tool.
 */
const cache = new WeakMap<object, DefinitionProblem[]>();

function problemsOf(tool: ToolView): DefinitionProblem[] {
  let problems = cache.get(tool.descriptor);
  if (problems !== undefined) return problems;
  const descriptor = tool.descriptor;
  // The wire descriptor's fields are unknown; checkToolDefinition type-checks each one itself.
  problems = checkToolDefinition(descriptor as unknown as ToolDescriptor, { compile: false });
  const name = tool.name;
  const input = descriptor.inputSchema;
  if (isJsonObject(input)) {
    const invalid = findSchemaProblem(input);
    if (invalid !== undefined) problems.push({ tool: name, field: 'inputSchema', pointer: invalid.schemaPath, code: 'schema-invalid', message: `inputSchema ${invalid.message}` });
  }
  if (descriptor.outputSchema !== undefined) {
    const invalid = findSchemaProblem(descriptor.outputSchema);
    if (invalid !== undefined) problems.push({ tool: name, field: 'outputSchema', pointer: invalid.schemaPath, code: 'schema-invalid', message: `outputSchema ${invalid.message}` });
  }
  cache.set(descriptor, problems);
  return problems;
}

type Classifier = (problem: DefinitionProblem) => boolean;

function isDialect(problem: DefinitionProblem): boolean {
  return problem.code === 'schema-invalid' && problem.pointer === '/$schema' && /dialect|\$schema/.test(problem.message);
}

function pointerOf(problem: DefinitionProblem): string {
  if (problem.field === 'name') return '/name';
  if (problem.field === 'inputSchema' || problem.field === 'outputSchema') {
    const inner = problem.pointer ?? '';
    return inner === '' ? `/${problem.field}` : `/${problem.field}${inner.startsWith('/') ? inner : childPointer('', inner)}`;
  }
  return '';
}

function definitionRule(id: string, summary: string, matches: Classifier, fix: (problem: DefinitionProblem) => string): LintRule {
  return {
    id,
    family: 'spec',
    defaultSeverity: 'error',
    summary,
    checkTool(tool: ToolView, ctx: RuleContext) {
      for (const problem of problemsOf(tool)) {
        if (!matches(problem)) continue;
        ctx.report({ pointer: pointerOf(problem), message: problem.message, fix: fix(problem) });
      }
    },
  };
}

export const nameFormat = definitionRule(
  'spec/name-format',
  'Tool names are 1-128 characters of A-Z a-z 0-9 _ . - (R-34).',
  (p) => p.code === 'name-length' || p.code === 'name-characters',
  (p) => (p.code === 'name-length' ? 'use a name of 1 to 128 characters' : 'use only letters, digits, "_", "." and "-"; snake_case is the safest across providers'),
);

export const inputSchemaRootObject = definitionRule(
  'spec/input-schema-root-object',
  'inputSchema is a JSON Schema object whose root has "type": "object" (R-36).',
  (p) => p.code === 'input-not-object-schema' || p.code === 'input-root-type',
  () => 'make inputSchema an object schema with "type": "object" at the root (for no parameters: {"type":"object","additionalProperties":false})',
);

export const dialectSupported = definitionRule(
  'spec/dialect-supported',
  'Schemas use a supported dialect: 2020-12 (default), 2019-09 or draft-07 (R-37).',
  (p) => isDialect(p),
  () => 'remove "$schema" (2020-12 is the default) or name a supported dialect',
);

export const inputSchemaValid = definitionRule(
  'spec/input-schema-valid',
  'inputSchema is a valid schema for its dialect (R-37).',
  (p) => p.code === 'schema-invalid' && p.field === 'inputSchema' && !isDialect(p),
  () => 'correct the keyword at this pointer so the schema compiles',
);

export const outputSchemaValid = definitionRule(
  'spec/output-schema-valid',
  'outputSchema, when present, is a valid schema for its dialect (R-39).',
  (p) => p.code === 'schema-invalid' && p.field === 'outputSchema' && !isDialect(p),
  () => 'correct the keyword at this pointer so the schema compiles',
);

export const xMcpHeader = definitionRule(
  'spec/x-mcp-header',
  'x-mcp-header annotations obey the spec: token syntax, unique ignoring case, integer/string/boolean only, statically reachable (R-44).',
  (p) => p.code === 'x-mcp-header',
  () => 'fix the annotation; an invalid x-mcp-header makes HTTP clients drop the whole tool (R-46)',
);
