/**
 * The fixtures of the suite's tasks scenarios (`io.modelcontextprotocol/tasks`, SEP-2663), each an
 * ordinary tool with a `task` option: `greet` (never a task), `slow_compute` (a task when it takes
 * a second or more, else answered at once), `failing_job` (task only; a tool error), `protocol_error_job`
 * (a protocol error), `confirm_delete` and `multi_input` (input requests inside a task), and
 * `test_tool_with_task` (an MRTR round first, then a task on the final round).
 */
import { defineTool, elicitInput, errorResult, ProtocolError } from '../../src/index.js';
import type { Tool } from '../../src/index.js';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

const CONFIRM_SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] } as const;
const ANSWER_SCHEMA = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } } as const;
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

/** The tasks fixtures, in tools/list order. */
export function taskFixtures(): Tool<unknown>[] {
  return [
    defineTool({
      name: 'greet',
      description: 'Greets someone; always answered synchronously.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const,
      run: ({ name }) => `Hello, ${name}!`,
    }),
    defineTool({
      name: 'slow_compute',
      description: 'Sleeps `seconds` seconds, reporting progress each second, then answers. One second or more runs as a task.',
      inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0, maximum: 3600 }, label: { type: 'string' } }, required: ['seconds'] } as const,
      task: { expectedDurationMs: ({ seconds }) => seconds * 1000, thresholdMs: 1000 },
      run: async ({ seconds, label }, ctx) => {
        for (let done = 0; done < seconds && !ctx.signal.aborted; done++) {
          ctx.progress(done, seconds, `${done} of ${seconds} s`);
          await sleep(Math.min(1, seconds - done) * 1000, ctx.signal);
        }
        return `Computed ${label ?? 'result'} after ${seconds} s`;
      },
    }),
    defineTool({
      name: 'failing_job',
      description: 'Runs only as a task and always ends with a tool error after about a second.',
      inputSchema: { type: 'object' } as const,
      task: { support: 'required' },
      run: async (_args, ctx) => {
        await sleep(1000, ctx.signal);
        return errorResult('failing_job failed as designed');
      },
    }),
    defineTool({
      name: 'protocol_error_job',
      description: 'Runs as a task and ends in a protocol error (a failed task).',
      inputSchema: { type: 'object' } as const,
      task: true,
      run: async (_args, ctx) => {
        await sleep(200, ctx.signal);
        throw new ProtocolError(-32603, 'protocol_error_job: simulated internal failure');
      },
    }),
    defineTool({
      name: 'confirm_delete',
      description: 'Runs as a task that asks the user to confirm (elicitation), then "deletes" the file.',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] } as const,
      task: true,
      run: ({ filename }, ctx) => {
        const got = ctx.inputs.require({ confirm: elicitInput({ message: `Delete ${filename}?`, requestedSchema: CONFIRM_SCHEMA }) });
        if (!got.ready) return got.result;
        const answer = got.responses.confirm;
        return answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
      },
    }),
    defineTool({
      name: 'multi_input',
      description: 'Runs as a task that asks two questions at once and completes when both are answered.',
      inputSchema: { type: 'object' } as const,
      task: true,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({
          first: elicitInput({ message: 'First answer?', requestedSchema: ANSWER_SCHEMA }),
          second: elicitInput({ message: 'Second answer?', requestedSchema: ANSWER_SCHEMA }),
        });
        if (!got.ready) return got.result;
        return `Got ${String(got.responses.first.content?.name)} and ${String(got.responses.second.content?.name)}`;
      },
    }),
    defineTool({
      name: 'test_tool_with_task',
      description: 'Asks for user_name synchronously (MRTR), then runs the rest as a task that greets the user.',
      inputSchema: { type: 'object' } as const,
      // Round 1 has no answers yet: answer synchronously with the input request; the final round becomes the task.
      task: { support: 'required', when: (_args, ctx) => ctx.inputResponses !== undefined },
      run: async (_args, ctx) => {
        const got = ctx.inputs.require({ user_name: elicitInput({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }) });
        if (!got.ready) return got.result;
        await sleep(200, ctx.signal);
        return `Hello, ${String(got.responses.user_name.content?.name)}! (from a task)`;
      },
    }),
  ] as Tool<unknown>[];
}
