import { nameFormat, inputSchemaRootObject, dialectSupported, inputSchemaValid, outputSchemaValid, xMcpHeader } from './spec/definition.js';
import { nameUnique } from './spec/name-unique.js';
import { noParamsClosed } from './spec/no-params-closed.js';
import { headerSecret } from './spec/header-secret.js';
import { defaultValid, examplesValid } from './spec/values-match-schema.js';
import { minMaxContradiction, requiredUnknown, enumTypeMismatch } from './spec/contradictions.js';
import { descriptionPurpose, descriptionUsage, relatedTools } from './quality/description.js';
import { paramDescription, numericUnit, coordinateFrame, closedSetEnum, objectClosed } from './quality/parameters.js';
import { paramCount, requiredHasDefault, nestingDepth, composition } from './quality/shape.js';
import { oneToolOneJob } from './quality/one-tool-one-job.js';
import { numericExamples } from './quality/numeric-examples.js';
import { prerequisiteTool, stateQueryTool } from './quality/sequencing.js';
import { nameStyleRule, nameAbbreviation, genericName } from './quality/naming.js';
import { confusableTools } from './quality/confusable.js';
import { integerPrecision } from './quality/integer-precision.js';
import { descriptionTokens, parameterDescriptionTokens, toolTokens, catalogTokens, toolCount } from './budget/tokens.js';
import { hiddenUnicode, promptInjection, persuasiveWording, exfiltration, urlInDescription } from './security/text-rules.js';
import { crossToolReference } from './security/cross-tool.js';
import { scopeToken } from './security/scope-token.js';
import { destructiveUnscoped } from './security/destructive-unscoped.js';
import { scopeNotPermission } from './security/scope-not-permission.js';
import { PROVIDER_RULES } from './provider/lowering.js';
import { PIN_RULES } from '../pin.js';
import { LINT_META_RULES } from '../opt-out.js';
import type { LintRule } from '../types.js';

/** Every built-in rule, in the order they run and are documented. */
export const BUILTIN_RULES: readonly LintRule[] = Object.freeze([
  nameFormat, nameUnique, inputSchemaRootObject, dialectSupported, inputSchemaValid, outputSchemaValid, noParamsClosed,
  xMcpHeader, headerSecret, defaultValid, examplesValid, minMaxContradiction, requiredUnknown, enumTypeMismatch,
  descriptionPurpose, descriptionUsage, relatedTools, prerequisiteTool, paramDescription, numericUnit, numericExamples, coordinateFrame, closedSetEnum,
  objectClosed, paramCount, requiredHasDefault, nestingDepth, composition, oneToolOneJob, stateQueryTool, nameStyleRule, nameAbbreviation,
  genericName, confusableTools, integerPrecision,
  descriptionTokens, parameterDescriptionTokens, toolTokens, catalogTokens, toolCount,
  hiddenUnicode, promptInjection, persuasiveWording, exfiltration, urlInDescription, crossToolReference,
  scopeToken, destructiveUnscoped, scopeNotPermission,
  ...PROVIDER_RULES, ...PIN_RULES, ...LINT_META_RULES,
]);
