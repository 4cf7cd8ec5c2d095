import { createHash } from 'node:crypto';
import { canonicalJson } from '../json/canonical-json.js';
import type { LintRule, WireTool } from './types.js';
import { InputError } from '../errors/toolwright-error.js';
import { isJsonObject } from '../json/json-object.js';

/** What a lockfile remembers about one tool. */
export interface PinEntry {
  /** sha256 of the model-facing prose: title and description. */
  description: string;
  /** sha256 of inputSchema and outputSchema. */
  schema: string;
  /** sha256 of annotations (read-only/destructive hints change what a host auto-approves). */
  annotations: string;
}

/** The `--pin` lockfile. */
export interface PinLock {
  version: 1;
  tools: Record<string, PinEntry>;
  /**
   * The approved tool descriptors themselves, so that `toolwright diff <lockfile> <target>` can say
   * what changed since approval (the hashes only say that something did). Absent in lockfiles
   * written before it was added; such a lockfile still pins, but cannot be diffed against.
   */
  catalog?: WireTool[];
}

function sha256(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** The pin entry of one tool. */
export function pinTool(tool: WireTool): PinEntry {
  return {
    description: sha256({ title: tool.title, description: tool.description }),
    schema: sha256({ inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }),
    annotations: sha256(tool.annotations ?? null),
  };
}

/** A lockfile for a catalog (tools without a string name cannot be pinned and are skipped). */
export function buildPinLock(tools: readonly WireTool[]): PinLock {
  const lock: PinLock = { version: 1, tools: {}, catalog: [] };
  for (const tool of tools) {
    if (typeof tool.name !== 'string') continue;
    lock.tools[tool.name] = pinTool(tool);
    lock.catalog!.push(tool);
  }
  return lock;
}

/** Thrown by {@link parsePinLock} for a lockfile that is not ours or is damaged. */
export class PinLockError extends InputError {
  readonly errorCode = 'pin-lock' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PinLockError';
  }
}

const HASH = /^sha256:[0-9a-f]{64}$/;

/** Parses and checks a lockfile's text. */
export function parsePinLock(text: string): PinLock {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PinLockError(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== 1) throw new PinLockError('not a toolwright pin lockfile (expected {"version":1,"tools":{...}})');
  const tools = (data as { tools?: unknown }).tools;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) throw new PinLockError('"tools" must be an object keyed by tool name');
  const catalog = (data as { catalog?: unknown }).catalog;
  if (catalog !== undefined && (!Array.isArray(catalog) || !catalog.every(isJsonObject))) throw new PinLockError('"catalog" must be a list of tool objects');
  for (const [name, entry] of Object.entries(tools)) {
    for (const key of ['description', 'schema', 'annotations'] as const) {
      const hash = (entry as Record<string, unknown> | null)?.[key];
      if (typeof hash !== 'string' || !HASH.test(hash)) throw new PinLockError(`tools.${name}.${key} must be "sha256:<64 hex digits>"`);
    }
  }
  return data as PinLock;
}

/** The pin lockfile to compare against during one run (set by the engine; absent = no `--pin`). */
export interface PinContext {
  lock: PinLock | undefined;
}

const WHAT: Record<keyof PinEntry, string> = {
  description: 'description (or title)',
  schema: 'inputSchema/outputSchema',
  annotations: 'annotations',
};

/** Builds the pin rules bound to one lockfile. */
export function createPinRules(lock: PinLock | undefined): LintRule[] {
  const changed: LintRule = {
    id: 'security/pin-changed',
    family: 'security',
    defaultSeverity: 'error',
    summary: 'A pinned tool\'s description, schema or annotations have not changed since approval (--pin).',
    checkTool(tool, ctx) {
      const pinned = lock?.tools[tool.name];
      if (pinned === undefined || typeof tool.descriptor.name !== 'string') return;
      const now = pinTool(tool.descriptor);
      for (const key of ['description', 'schema', 'annotations'] as const) {
        if (now[key] === pinned[key]) continue;
        ctx.report({
          pointer: key === 'schema' ? '/inputSchema' : key === 'annotations' ? '/annotations' : '/description',
          message: `the ${WHAT[key]} changed since it was pinned: a tool that changes after approval is a known attack ("rug pull")`,
          fix: 'review the change; if it is intended, re-approve with --pin <lockfile> --update-pin',
        });
      }
    },
  };
  const added: LintRule = {
    id: 'security/pin-new-tool',
    family: 'security',
    defaultSeverity: 'warning',
    summary: 'Every tool is in the pin lockfile (a new tool has not been reviewed yet).',
    checkTool(tool, ctx) {
      if (lock === undefined || typeof tool.descriptor.name !== 'string' || lock.tools[tool.name] !== undefined) return;
      ctx.report({
        pointer: '',
        message: `tool "${tool.name}" is not in the pin lockfile: it appeared since the last approval`,
        fix: 'review it, then re-approve with --pin <lockfile> --update-pin',
      });
    },
  };
  const removed: LintRule = {
    id: 'security/pin-removed-tool',
    family: 'security',
    defaultSeverity: 'info',
    summary: 'Tools in the pin lockfile are still offered.',
    checkCatalog(catalog, ctx) {
      if (lock === undefined) return;
      const present = new Set(catalog.tools.map((t) => t.name));
      for (const name of Object.keys(lock.tools)) {
        if (present.has(name)) continue;
        ctx.report({ pointer: '', message: `pinned tool "${name}" is no longer offered`, fix: 'if intended, re-approve with --update-pin' });
      }
    },
  };
  return [changed, added, removed];
}

/** The pin rules without a lockfile: registered so docs, config and SARIF know them. */
export const PIN_RULES: readonly LintRule[] = createPinRules(undefined);
