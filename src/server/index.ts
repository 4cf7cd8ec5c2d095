/** Authoring and serving MCP tools. */
export { defineTool, isTool, ToolDefinitionError } from './define-tool.js';
export { createServer } from './create-server.js';
export type { ServerOptions, McpServer } from './create-server.js';
export { checkToolDefinition, analyzeToolDefinition } from './tool-definition-rules.js';
export type { DefinitionProblem, ToolDefinitionAnalysis } from './tool-definition-rules.js';
export { ServerDefinitionError } from './tool-registry.js';
export { OUTCOMES } from './outcomes.js';
export type { OutcomeName, OutcomeRule } from './outcomes.js';
export { STAGES } from './stage-events.js';
export type { StageEvent, StageName, StageOutcome } from './stage-events.js';
export type { Authorizer, AuthorizeRequest, ServerLogger } from './call-pipeline.js';
export { text, errorResult, inputRequired } from './results.js';
export type {
  Tool,
  ToolContext,
  ToolDefinitionInit,
  ToolResultInit,
  InputRequiredInit,
  ToolRunResult,
  RuleViolation,
  ApprovalRequest,
  AuthInfo,
  LogLevel,
  SchemaInput,
  JsonSchemaLiteral,
  InferArguments,
} from './tool-types.js';
