/**
 * Motions asked of a client's user (elicitation), as the operator console shows them: "awaiting the
 * client's user", with the plan. The operator may DECLINE one (the client's answer then refuses the
 * motion, whatever the user said) or press the e-stop (a stop voids them all), but never approve it
 * for the user: approval by elicitation stays the user's. An entry ends when the client answers,
 * when its state expires, when the operator declines it, or at a stop. Bounded: the oldest entries
 * go first past {@link MAX_ENTRIES}.
 */
import type { JsonValue } from 'toolwright';

/** One motion waiting for the client's user. */
export interface AwaitingUserApproval {
  /** Sealed into the question's requestState; the answer brings it back. */
  readonly id: string;
  readonly tool: string;
  readonly summary: string;
  readonly planHash: string;
  /** The plan as the console draws it (e.g. a `PlannedMotion`). */
  readonly details: JsonValue | undefined;
  /** ms since epoch. */
  readonly askedAt: number;
  /** After this the client's answer is refused anyway (the requestState expired). */
  readonly expiresAt: number;
}

/** Why an entry left the board. */
export type AwaitingUserEnd = 'answered' | 'declined' | 'expired' | 'stopped';

/** What a console listener hears. */
export type AwaitingUserEvent =
  | { readonly type: 'awaiting'; readonly entry: AwaitingUserApproval }
  | { readonly type: 'ended'; readonly entry: AwaitingUserApproval; readonly end: AwaitingUserEnd; readonly operator?: string };

/** Outcome of {@link UserApprovalBoard.decline}. */
export type DeclineUserResult =
  | { readonly ok: true; readonly entry: AwaitingUserApproval }
  | { readonly ok: false; readonly reason: 'unknown'; readonly message: string };

const MAX_ENTRIES = 100;

/** The board of one robot server (the approval gate owns it). */
export class UserApprovalBoard {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #open = new Map<string, { entry: AwaitingUserApproval; timer: NodeJS.Timeout }>();
  /** Declined entries wait here for the client's answer (to refuse it), until they expire. */
  readonly #declined = new Map<string, { operator: string; expiresAt: number }>();
  readonly #listeners = new Set<(event: AwaitingUserEvent) => void>();

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** Puts a motion on the board under `id` (unguessable, sealed into the question); returns its entry. */
  add(init: Omit<AwaitingUserApproval, 'askedAt' | 'expiresAt'>): AwaitingUserApproval {
    const askedAt = this.#now();
    const entry: AwaitingUserApproval = Object.freeze({ ...init, askedAt, expiresAt: askedAt + this.#ttlMs });
    if (this.#open.size >= MAX_ENTRIES) {
      const oldest = this.#open.keys().next().value;
      if (oldest !== undefined) this.#end(oldest, 'expired');
    }
    const timer = setTimeout(() => this.#end(entry.id, 'expired'), this.#ttlMs).unref();
    this.#open.set(entry.id, { entry, timer });
    this.#emit({ type: 'awaiting', entry });
    return entry;
  }

  /** The motions waiting for their client's user now, oldest first. */
  list(): AwaitingUserApproval[] {
    return [...this.#open.values()].map((o) => o.entry);
  }

  /** Listens to `awaiting` and `ended`; returns the function that stops listening. */
  subscribe(listener: (event: AwaitingUserEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The operator declines a motion for good: the client's answer will refuse it. */
  decline(id: string, operator: string): DeclineUserResult {
    const open = this.#open.get(id);
    if (open === undefined) return { ok: false, reason: 'unknown', message: `no motion awaiting a client's user has id ${JSON.stringify(id)} (answered, expired, stopped or declined already)` };
    this.#pruneDeclined();
    this.#declined.set(id, { operator, expiresAt: open.entry.expiresAt });
    this.#end(id, 'declined', operator);
    return { ok: true, entry: open.entry };
  }

  /**
   * The client answered the question `id`: takes it off the board. Returns who declined it at the
   * console, if the operator did (the motion must then be refused), else undefined.
   */
  answered(id: string): string | undefined {
    this.#pruneDeclined();
    const declined = this.#declined.get(id);
    this.#declined.delete(id);
    this.#end(id, 'answered');
    return declined?.operator;
  }

  /** A stop voids every question: they all leave the board. */
  stopped(): void {
    for (const id of [...this.#open.keys()]) this.#end(id, 'stopped');
  }

  #pruneDeclined(): void {
    const now = this.#now();
    for (const [key, d] of this.#declined) if (d.expiresAt <= now) this.#declined.delete(key);
  }

  #end(id: string, end: AwaitingUserEnd, operator?: string): void {
    const open = this.#open.get(id);
    if (open === undefined) return;
    clearTimeout(open.timer);
    this.#open.delete(id);
    this.#emit({ type: 'ended', entry: open.entry, end, ...(operator !== undefined ? { operator } : {}) });
  }

  #emit(event: AwaitingUserEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }
}
