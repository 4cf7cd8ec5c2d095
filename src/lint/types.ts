/** How much a finding matters. `error` fails the run (exit code 1); `off` disables a rule. */
export type Severity = 'error' | 'warning' | 'info';

/** A severity as it may be configured: any {@link Severity}, or `off`. */
export type SeveritySetting = Severity | 'off';

/** Where a rule's judgement comes from. */
export type RuleFamily = 'spec' | 'quality' | 'budget' | 'security' | 'provider' | 'lint';

/**
 * A tool descriptor in wire form, as `tools/list` returns it. Everything is `unknown` because the
 * linter must cope with broken definitions: that is what it is for.
 */
export type WireTool = Record<string, unknown>;

/** One problem the linter found. */
export interface Finding {
  /** Rule id, e.g. `quality/param-description`. */
  ruleId: string;
  severity: Severity;
  /** Tool name, or undefined for findings about the whole catalog. */
  tool: string | undefined;
  /** Position of the tool in the list (undefined for catalog findings). */
  toolIndex: number | undefined;
  /** RFC 6901 pointer into the tool descriptor ("" = the whole tool or catalog). */
  pointer: string;
  /** One line: what is wrong. */
  message: string;
  /** One line: how to fix it. */
  fix: string;
}

/** What a rule hands to `report`. Severity defaults to the rule's configured severity. */
export interface Report {
  pointer: string;
  message: string;
  fix: string;
  /**
   * A stronger (or weaker) severity than the rule's default for this one report, e.g. the
   * parameter-count rule escalates above its error threshold. A severity set in the config wins.
   */
  severity?: Severity;
  /** For catalog rules: the tool this finding belongs to (pointer is then inside that tool). */
  tool?: ToolView;
}

/** A property found by walking `inputSchema` through `properties` chains. */
export interface ParamInfo {
  /** Property name. */
  name: string;
  /** Pointer of the property schema inside the tool, e.g. `/inputSchema/properties/force`. */
  pointer: string;
  /** The property schema (may be a boolean schema). */
  schema: unknown;
  /** 1 for top-level parameters, 2 for properties of a top-level object parameter, ... */
  level: number;
  /** Listed in the enclosing object's `required`. */
  required: boolean;
  /** The enclosing parameter, or undefined for top-level ones. */
  parent: ParamInfo | undefined;
}

/** A tool as rules see it: raw descriptor plus what several rules need, computed once. */
export interface ToolView {
  index: number;
  /** The tool name if it is a string, else a placeholder such as `#3`. */
  name: string;
  descriptor: WireTool;
  /** `descriptor.description` if it is a string, else "". */
  description: string;
  /** Every property reachable through `properties` (and array `items`), in document order. */
  params: ParamInfo[];
  /** Top-level parameters only. */
  topLevel: ParamInfo[];
}

/** Per-rule options: numbers, strings, booleans or lists of strings. */
export type RuleOptions = Readonly<Record<string, number | string | boolean | readonly string[]>>;

/** Context handed to a rule for one run. */
export interface RuleContext<Prepared = unknown> {
  /**
   * The rule's options: defaults merged with the config, checked against the defaults' types.
   * The built-in rules read them only in `prepare` and use `prepared` in their checks.
   */
  options: RuleOptions;
  /** What the rule's `prepare` made of its options, once per lint run (undefined without `prepare`). */
  prepared: Prepared;
  /** Reports one finding (its severity comes from the configuration). */
  report(report: Report): void;
}

/** The whole catalog, for rules that compare tools or count totals. */
export interface CatalogView {
  tools: readonly ToolView[];
}

/** A lint rule. Either hook may be absent. */
export interface LintRule<Prepared = unknown> {
  id: string;
  family: RuleFamily;
  defaultSeverity: Severity;
  /** One line for docs, SARIF `shortDescription`, and `--list-rules`. */
  summary: string;
  /** Default option values; the config may override any of them. */
  defaultOptions?: RuleOptions;
  /** Extra checks of configured options beyond their type; returns a problem or undefined. */
  validateOptions?(options: RuleOptions): string | undefined;
  /**
   * Turns the rule's options into what its checks read (typed numbers, parsed lists, sets), once
   * per lint run rather than once per tool; the checks find it as `ctx.prepared`. The options have
   * been checked first (each configured value has its default's type, and `validateOptions` passed).
   */
  prepare?(options: RuleOptions): Prepared;
  /** Checks one tool; called once per tool of the catalog. */
  checkTool?(tool: ToolView, ctx: RuleContext<Prepared>): void;
  /** Checks the catalog as a whole (names that clash, shared budgets); called once per lint run. */
  checkCatalog?(catalog: CatalogView, ctx: RuleContext<Prepared>): void;
}

/** One configured rule. */
export interface RuleSetting {
  severity?: SeveritySetting;
  options?: Record<string, number | string | boolean | string[]>;
}

/** An opt-out from the config file: a rule switched off for some tools, with a reason. */
export interface ConfigIgnore {
  rule: string;
  tools: string[];
  reason: string;
}

/** The resolved lint configuration. */
export interface LintConfig {
  rules: Record<string, RuleSetting>;
  ignore: ConfigIgnore[];
}

/** A finding that was suppressed by an opt-out, kept so reports can show what was waived and why. */
export interface Suppression {
  ruleId: string;
  tool: string;
  reason: string;
  /** `config` (the config file) or `inline` (the tool's own `_meta`). */
  source: 'config' | 'inline';
}

/** Result of linting a catalog. */
export interface LintResult {
  findings: Finding[];
  suppressed: Suppression[];
  toolCount: number;
  counts: { error: number; warning: number; info: number };
}
