/**
 * THE sample tool of the tests: `echo` answers its required `text`. Tests that need a plain tool
 * use this one (the stage fixture, transport and console tests) rather than defining their own copy;
 * a test that needs a different contract defines that tool where it is used.
 */
import { defineTool } from '../../src/index.js';
import type { Tool } from '../../src/index.js';

export const SAMPLE_INPUT_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string', description: 'Text to return' } },
  required: ['text'],
  additionalProperties: false,
} as const;

export interface SampleToolOptions {
  /** Default `echo`. */
  name?: string;
  /** Default "Returns its text.". */
  description?: string;
  /** Called with the arguments of every run (counting runs, proving that nothing ran). */
  onRun?: (args: { text: string }) => void;
}

/** The sample tool: `{ text }` in, the same text out as one text block. */
export function sampleTool(options: SampleToolOptions = {}): Tool<{ text: string }> {
  return defineTool({
    name: options.name ?? 'echo',
    description: options.description ?? 'Returns its text.',
    inputSchema: SAMPLE_INPUT_SCHEMA,
    run: (args) => {
      options.onRun?.(args);
      return args.text;
    },
  });
}
