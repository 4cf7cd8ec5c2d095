import { compileSchema, SchemaCompileError } from '../../schema/index.js';
import type { CompiledSchema } from '../../schema/index.js';
import { scanHeaderAnnotations } from '../../protocol/x-mcp-header.js';
import type { HeaderAnnotation } from '../../protocol/x-mcp-header.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';

/** One reason a tool definition is invalid. */
export interface DefinitionProblem {
  /** The tool's name as given (may itself be the problem). */
  tool: string;
  /** Which part of the descriptor is wrong. */
  field: 'name' | 'inputSchema' | 'outputSchema' | 'scopes' | 'tool';
  /** JSON Pointer inside the schema, when the problem is in a schema. */
  pointer?: string;
  /** Machine-readable kind of problem (each maps to one lint rule). */
  code:
    | 'name-length'
    | 'name-characters'
    | 'input-not-object-schema'
    | 'input-root-type'
    | 'schema-invalid'
    | 'x-mcp-header'
    // Registry-level problems (several tools / server options), reported by createServer.
    | 'duplicate-name'
    | 'not-a-tool'
    | 'scopes-without-authorize';
  /** Human-readable explanation, naming the offending value. */
  message: string;
}

/** What the definition analysis (`analyzeToolDefinition`, behind `checkToolDefinition` and `defineTool`) learns: problems, and for valid definitions the compiled parts. */
export interface ToolDefinitionAnalysis {
  /** Every problem found (empty = valid). */
  problems: DefinitionProblem[];
  /** The compiled `inputSchema`, unless it is missing or invalid. */
  input: CompiledSchema | undefined;
  /** The compiled `outputSchema`, unless it is absent or invalid. */
  output: CompiledSchema | undefined;
  /** The valid `x-mcp-header` annotations of `inputSchema`. */
  headers: HeaderAnnotation[];
}

/** Options of {@link checkToolDefinition}. */
export interface CheckToolDefinitionOptions {
  /**
   * Compile both schemas to prove they are valid (default `true`). With `false` the schema engine
   * is not used at all: only the name, the `inputSchema` root and the `x-mcp-header` annotations
   * are checked, and `schema-invalid` is never reported. For callers that check schema validity
   * their own way, like the linter, which must not pay for validator code generation per tool.
   */
  compile?: boolean;
}

const NAME = /^[A-Za-z0-9_.-]+$/;

function compileField(descriptor: ToolDescriptor, field: 'inputSchema' | 'outputSchema', problems: DefinitionProblem[]): CompiledSchema | undefined {
  const schema = descriptor[field];
  if (schema === undefined) return undefined;
  try {
    return compileSchema(schema);
  } catch (error) {
    if (!(error instanceof SchemaCompileError)) throw error;
    problems.push({ tool: descriptor.name, field, pointer: error.schemaPath, code: 'schema-invalid', message: `${field} ${error.message}` });
    return undefined;
  }
}

/**
 * Checks a tool descriptor and compiles its schemas. Used by the server at registration (so the
 * compiled validators are the ones serving calls); the linter uses {@link checkToolDefinition}
 * with `compile: false`.
 */
export function analyzeToolDefinition(descriptor: ToolDescriptor): ToolDefinitionAnalysis {
  return inspect(descriptor, true);
}

function inspect(descriptor: ToolDescriptor, compile: boolean): ToolDefinitionAnalysis {
  const problems: DefinitionProblem[] = [];
  const name = descriptor.name;
  if (typeof name !== 'string' || name.length < 1 || name.length > 128) {
    const length = typeof name === 'string' ? `${name.length} characters` : `a ${typeof name}`;
    problems.push({ tool: String(name), field: 'name', code: 'name-length', message: `name must be 1 to 128 characters, got ${length}` });
  } else if (!NAME.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))].map((c) => JSON.stringify(c)).join(', ');
    problems.push({ tool: name, field: 'name', code: 'name-characters', message: `name may only use A-Z a-z 0-9 _ . - (found ${bad})` });
  }
  const input = descriptor.inputSchema as unknown;
  let compiledInput: CompiledSchema | undefined;
  let headers: HeaderAnnotation[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    problems.push({ tool: String(name), field: 'inputSchema', pointer: '', code: 'input-not-object-schema', message: 'inputSchema must be a JSON Schema object' });
  } else {
    const rootType = (input as { type?: unknown }).type;
    if (rootType !== 'object') {
      problems.push({
        tool: String(name), field: 'inputSchema', pointer: '/type', code: 'input-root-type',
        message: `inputSchema root must have "type": "object", got ${rootType === undefined ? 'no type' : JSON.stringify(rootType)}`,
      });
    }
    if (compile) compiledInput = compileField(descriptor, 'inputSchema', problems);
    const scan = scanHeaderAnnotations(input);
    headers = scan.annotations;
    for (const problem of scan.problems) {
      problems.push({ tool: String(name), field: 'inputSchema', pointer: problem.pointer, code: 'x-mcp-header', message: problem.message });
    }
  }
  const compiledOutput = compile ? compileField(descriptor, 'outputSchema', problems) : undefined;
  return { problems, input: compiledInput, output: compiledOutput, headers };
}

/**
 * The definition rules of MCP 2026-07-28 for one tool: name 1-128 chars of `[A-Za-z0-9_.-]`,
 * `inputSchema` an object schema with root `type: "object"`, both schemas compile (unless
 * `options.compile` is `false`), and every `x-mcp-header` annotation obeys the spec. Every field
 * is type-checked, so a descriptor parsed from untrusted JSON is safe to pass. Returns all
 * problems (empty = valid).
 */
export function checkToolDefinition(descriptor: ToolDescriptor, options: CheckToolDefinitionOptions = {}): DefinitionProblem[] {
  return inspect(descriptor, options.compile ?? true).problems;
}
