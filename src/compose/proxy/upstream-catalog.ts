/**
 * What one proxied upstream offers the front server, kept current: its tools (listed again when the
 * upstream says they changed, at a bounded rate), its resources and prompts (listed at start), and
 * what could not be taken. It is a `MountableCatalog`, so the front mounts it like an in-process
 * server and recompiles its tool list when this one changes (server/catalog/remount.ts).
 */
import type { InputRequiredInit, ListChangedKind, MountableCatalog, MountRefusal, Prompt, Resource, ResourceTemplate, Tool, ToolContext, ToolResultInit } from '../../server/index.js';
import { HeldInputCalls } from './held-input-calls.js';
import { adoptTools } from './adopt-tools.js';
import type { AdoptSettings, UpstreamToolProblem } from './adopt-tools.js';
import { adoptFeatures } from './upstream-features.js';
import { ProxyError } from './proxy-error.js';
import { Upstream } from './upstream.js';
import type { UpstreamListKind, UpstreamOptions, UpstreamTarget } from './upstream.js';

/** How the catalog takes and follows the upstream's lists. */
export interface CatalogSettings extends Omit<AdoptSettings, 'call'> {
  /** Least time between the starts of two re-lists, in ms. */
  readonly minRelistIntervalMs: number;
  /** Whether resources, templates and prompts are taken. */
  readonly features: boolean;
}

/** See the module comment. */
export class UpstreamCatalog implements MountableCatalog {
  readonly upstream: Upstream;
  /** Upstream calls waiting for their caller's answers to an input request (held-input-calls.ts). */
  readonly #held: HeldInputCalls;
  readonly #settings: AdoptSettings & CatalogSettings;
  #tools: readonly Tool[] = [];
  #names: readonly { local: string; upstream: string }[] = [];
  /** Upstream names currently served: a call to one no longer listed is refused here. */
  #served = new Set<string>();
  #listProblems: readonly UpstreamToolProblem[] = [];
  #featureProblems: readonly UpstreamToolProblem[] = [];
  #relistFailure: UpstreamToolProblem | undefined;
  readonly #collisions = new Map<string, UpstreamToolProblem>();
  #resources: readonly (Resource | ResourceTemplate)[] = [];
  #prompts: readonly Prompt[] = [];
  readonly #listeners = new Set<(kind: ListChangedKind) => void>();
  #relisting: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #lastRelist = -Infinity;
  #closed = false;
  /** Re-lists done since start (successful or not), for tests and metrics. */
  relists = 0;

  constructor(target: UpstreamTarget, options: UpstreamOptions, settings: CatalogSettings) {
    this.upstream = new Upstream(target, options, (kind) => this.#heard(kind));
    this.#held = new HeldInputCalls(this.upstream);
    this.#settings = { ...settings, call: (name, args, ctx) => this.#call(name, args, ctx) };
  }

  get tools(): readonly Tool[] {
    return this.#tools;
  }

  get names(): readonly { local: string; upstream: string }[] {
    return this.#names;
  }

  get resources(): readonly (Resource | ResourceTemplate)[] {
    return this.#resources;
  }

  get prompts(): readonly Prompt[] {
    return this.#prompts;
  }

  /** Only the tool list is followed: resources and prompts are taken at start. */
  get listChanged(): readonly ListChangedKind[] {
    return ['tools'];
  }

  /** Every entry not taken (of the current list), the last failed re-list, and the tools the front refused. */
  get problems(): UpstreamToolProblem[] {
    return [...this.#listProblems, ...this.#featureProblems, ...(this.#relistFailure !== undefined ? [this.#relistFailure] : []), ...this.#collisions.values()];
  }

  onListChanged(listener: (kind: ListChangedKind) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Lists everything once.
   * @throws ProxyError `upstream_unavailable` when tools cannot be listed, `name_collision` for a name listed twice.
   */
  async start(): Promise<void> {
    const adopted = adoptTools(await this.upstream.listTools(), this.#settings);
    this.#adopt(adopted);
    if (!this.#settings.features) return;
    const capabilities = await this.upstream.capabilities();
    try {
      const features = await adoptFeatures(this.upstream, capabilities, { prefix: this.#settings.prefix, maxEntries: this.#settings.maxTools, maxBytes: this.#settings.maxBytes });
      this.#resources = features.resources;
      this.#prompts = features.prompts;
      this.#featureProblems = features.problems;
    } catch (error) {
      // Tools are what the proxy is for: a failing resources or prompts list leaves those out, reported.
      this.#featureProblems = [{ tool: undefined, code: 'list-failed', message: `resources and prompts are not served: ${error instanceof Error ? error.message : String(error)}` }];
    }
  }

  /** The front left a tool out after a list change (its name is served by another source). */
  refused(refusal: MountRefusal): void {
    const upstreamName = this.#names.find((n) => n.local === refusal.tool)?.upstream ?? refusal.tool;
    this.#collisions.set(refusal.tool, { tool: upstreamName, code: 'collision', message: `left out on the front server: ${refusal.reason}` });
  }

  #adopt(adopted: ReturnType<typeof adoptTools>): void {
    this.#tools = Object.freeze(adopted.tools);
    this.#names = Object.freeze(adopted.names);
    this.#served = new Set(adopted.names.map((n) => n.upstream));
    this.#listProblems = adopted.problems;
    this.#relistFailure = undefined;
    this.#collisions.clear();
  }

  #call(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResultInit | InputRequiredInit> {
    if (!this.#served.has(name)) {
      return Promise.resolve({ content: [{ type: 'text', text: `Upstream ${this.upstream.label} no longer lists the tool ${name} (its tool list changed); list the tools again.` }], isError: true });
    }
    return this.#held.run(name, args, ctx);
  }

  /** A list_changed from the upstream (or a reconnect): a re-list now, or one at the end of the interval; never two at once. */
  #heard(kind: UpstreamListKind): void {
    if (kind !== 'tools' || this.#closed) return;
    if (this.#relisting !== undefined) {
      this.#again = true;
      return;
    }
    if (this.#timer !== undefined) return;
    const wait = this.#lastRelist + this.#settings.minRelistIntervalMs - performance.now();
    if (wait <= 0) return void this.#relist();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#relist();
    }, wait);
    this.#timer.unref();
  }

  #relist(): void {
    this.#lastRelist = performance.now();
    this.relists++;
    this.#relisting = (async () => {
      try {
        const adopted = adoptTools(await this.upstream.listTools(), this.#settings);
        if (this.#closed) return;
        this.#adopt(adopted);
        for (const listener of this.#listeners) listener('tools');
      } catch (error) {
        const message = error instanceof ProxyError ? error.message : `upstream ${this.upstream.label}: ${error instanceof Error ? error.message : String(error)}`;
        this.#relistFailure = { tool: undefined, code: 'relist-failed', message: `${message}; the previous list is still served` };
      }
    })().finally(() => {
      this.#relisting = undefined;
      if (this.#again) {
        this.#again = false;
        this.#heard('tools');
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
    await this.upstream.close();
  }
}
