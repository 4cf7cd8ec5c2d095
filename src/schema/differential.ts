import { detectDialect } from './dialect.js';
import { compileCompliant } from './engines/compliant.js';
import { compileFast } from './engines/fast.js';
import { planFastPath } from './route.js';
import { normaliseFastErrors } from './normalise-fast.js';
import type { SchemaError } from './types.js';

/** Both engines compiled on one schema, for the differential test and the suite runner. */
export interface BothEngines {
  compliant: (instance: unknown) => SchemaError[];
  fast: ((instance: unknown) => SchemaError[]) | undefined;
}

/** Compile `schema` with the compliant engine, and with the fast one when it is eligible. Internal: tests only. */
export function compileBothEngines(schema: object | boolean, options: { remotes?: Record<string, object | boolean>; formatAssertion?: boolean }): BothEngines {
  const dialect = detectDialect(schema, options.remotes);
  const compliant = compileCompliant(schema, dialect, { remotes: options.remotes, formatAssertion: options.formatAssertion === true });
  const formatAssertion = options.formatAssertion === true;
  const plan = planFastPath(schema, dialect, formatAssertion);
  const compliantErrors = (instance: unknown): SchemaError[] => compliant(instance).errors;
  if (plan.blocker !== undefined) return { compliant: compliantErrors, fast: undefined };
  const fast = compileFast(schema, dialect, formatAssertion, plan);
  return { compliant: compliantErrors, fast: (instance) => { const raw = fast(instance); return raw === undefined ? [] : normaliseFastErrors(raw).errors; } };
}
