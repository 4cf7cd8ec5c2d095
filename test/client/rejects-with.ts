/** The client tests' one assertion for failures: the promise rejects with an McpClientError whose fields equal `expected`. */
import assert from 'node:assert/strict';
import { McpClientError } from '../../src/client/index.js';

export async function rejectsWith(promise: Promise<unknown>, expected: Record<string, unknown>): Promise<McpClientError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpClientError, `expected McpClientError, got ${String(error)}`);
    for (const [key, value] of Object.entries(expected)) assert.deepEqual((error as unknown as Record<string, unknown>)[key], value, key);
    return error;
  }
  assert.fail('expected a rejection');
}
