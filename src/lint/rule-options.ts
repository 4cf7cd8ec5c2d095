import type { RuleOptions } from './types.js';

type OptionKind = 'number' | 'string' | 'boolean' | 'list';

function kindOf(value: unknown): OptionKind | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? 'list' : undefined;
  return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? typeof value as OptionKind : undefined;
}

/**
 * A rule's options (its defaults with the config merged over them) read as the type of its
 * defaults, for `prepare`: the typed values the rule's checks then use from `ctx.prepared`. The
 * engine has already refused any configured value whose type differs from its default's
 * (`checkRuleOptions`, a LintConfigError naming the rule, the option and the value); the check
 * here only guards that invariant for a `prepare` called some other way.
 */
export function optionsOfDefaults<Defaults extends RuleOptions>(defaults: Defaults, options: RuleOptions): Defaults {
  for (const [key, value] of Object.entries(defaults)) {
    const kind = kindOf(options[key]);
    if (kind !== kindOf(value)) throw new TypeError(`option ${key} is ${kind === undefined ? 'missing or of no option type' : `a ${kind}`}, its default a ${kindOf(value)}: prepare needs options the engine has checked`);
  }
  return options as Defaults;
}
