import type { LossEntry } from './types.js';
import { InputError } from '../errors/toolwright-error.js';

/** Why a host-side operation refused its input. */
export type HostErrorCode =
  | 'unknown_provider'
  | 'unknown_tool'
  | 'invalid_tool'
  | 'unmappable_tool'
  | 'name_collision'
  | 'invalid_options';

/**
 * Thrown for input the host layer cannot work with: an unknown provider, a tool that is not a
 * valid MCP tool, a tool that cannot be lowered under the options asked for. `code` is stable;
 * `message` names the tool and the exact reason.
 */
export class HostError extends InputError {
  readonly errorCode = 'host' as const;
  readonly code: HostErrorCode;
  /** The MCP tool name concerned, when there is one. */
  readonly tool: string | undefined;
  /** For `unmappable_tool`: the loss report of the attempt, with the rejected keywords. */
  readonly loss: LossEntry[];
  constructor(code: HostErrorCode, message: string, tool?: string, loss: LossEntry[] = []) {
    super(message);
    this.name = 'HostError';
    this.code = code;
    this.tool = tool;
    this.loss = loss;
  }
}
