// The tool catalog every server under test registers: `calculate_sum` plus filler tools shaped like
// real embodied-AI tools (nested objects, ranges, enums, arrays), so that catalog size costs what it
// would cost in a real deployment.

/** A JSON Schema (the subset this catalog uses). */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
}

export const SUM_TOOL: CatalogTool = {
  name: 'calculate_sum',
  description: 'Add two integers and return their sum. Use for exact integer addition.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
};

const VERBS = ['move', 'rotate', 'grasp', 'release', 'scan', 'calibrate', 'inspect', 'place', 'push', 'measure'] as const;
const OBJECTS = ['arm', 'gripper', 'camera', 'conveyor', 'joint', 'tray', 'sensor', 'wrist', 'base', 'tool'] as const;

function fillerTool(index: number): CatalogTool {
  const verb = VERBS[index % VERBS.length];
  const object = OBJECTS[Math.floor(index / VERBS.length) % OBJECTS.length];
  const name = `${verb}_${object}_${index}`;
  return {
    name,
    description: `${verb[0]!.toUpperCase()}${verb.slice(1)} the ${object} (unit ${index}). Use only after the ${object} reported ready; speeds are in metres per second.`,
    inputSchema: {
      type: 'object',
      properties: {
        target: {
          type: 'object',
          properties: { x: { type: 'number', minimum: -1, maximum: 1 }, y: { type: 'number', minimum: -1, maximum: 1 }, z: { type: 'number', minimum: 0, maximum: 1.5 } },
          required: ['x', 'y', 'z'],
          additionalProperties: false,
        },
        speed: { type: 'number', minimum: 0.01, maximum: 0.5, description: 'Linear speed in m/s' },
        mode: { type: 'string', enum: ['precise', 'fast', 'compliant'] },
        label: { type: 'string', maxLength: 64 },
        retries: { type: 'integer', minimum: 0, maximum: 5 },
        waypoints: { type: 'array', items: { type: 'number' }, maxItems: 16 },
        dry_run: { type: 'boolean' },
      },
      required: ['target'],
      additionalProperties: false,
    },
  };
}

/** `calculate_sum` followed by `size - 1` filler tools; deterministic for a given size. */
export function catalogOf(size: number): CatalogTool[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`catalog size must be a positive integer, got ${size}`);
  const tools: CatalogTool[] = [SUM_TOOL];
  for (let i = 1; i < size; i++) tools.push(fillerTool(i));
  return tools;
}

/** Text mirror of the structured result (the spec asks for one for older clients). */
export function sumText(sum: number): string {
  return `{"sum":${sum}}`;
}

/** What a filler tool answers; the benchmark never measures filler calls, only registers them. */
export function fillerText(name: string): string {
  return `${name}: done`;
}
