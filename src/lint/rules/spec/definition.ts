import { checkToolDefinition } from '../../../server/tool-definition-rules.js';
import type { DefinitionProblem } from '../../../server/tool-definition-rules.js';
import type { ToolDescriptor } from '../../../protocol/wire-types.js';
import { childPointer } from '../../tool-view.js';
import type { LintRule, RuleContext, ToolView } from '../../types.js';

/**
 * The spec's definition rules are the server's own registration checks
 * (`server/tool-definition-rules.ts`), run once per tool and cached for the run; each problem
 * code maps to one lint rule id so the rules can be configured separately.
 */
const cache = new WeakMap<object, DefinitionProblem[]>();

function problemsOf(tool: ToolView): DefinitionProblem[] {
  let problems = cache.get(tool.descriptor);
  if (problems === undefined) {
    try {
      problems = checkToolDefinition(tool.descriptor as unknown as ToolDescriptor);
    } catch (error) {
      // A schema so broken the compiler itself fails is still a finding, not a crash of the linter.
      problems = [{ tool: tool.name, field: 'inputSchema', pointer: '', code: 'schema-invalid', message: `inputSchema could not be compiled: ${error instanceof Error ? error.message : String(error)}` }];
    }
    cache.set(tool.descriptor, problems);
  }
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
