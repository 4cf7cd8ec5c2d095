/**
 * THE order of the pipeline. The stage names (`STAGES`, `StageName`) derive from this one list; the
 * chain builder checks at compile time that each stage accepts the state the previous one produces.
 */
import { approval } from './approval.js';
import { authenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { check } from './check.js';
import { claim } from './claim.js';
import { clientCapabilities } from './client-capabilities.js';
import { context } from './context.js';
import { decode } from './decode.js';
import { envelope } from './envelope.js';
import { execute } from './execute.js';
import { findTool } from './find-tool.js';
import { headers } from './headers.js';
import { output } from './output.js';
import { paramHeaders } from './param-headers.js';
import { requestState } from './request-state.js';
import { route } from './route.js';
import { shape } from './shape.js';
import { task } from './task.js';
import { version } from './version.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { AnyState, Received, Stage, Stop } from './stage.js';

/** A stage with its types erased, as the runner holds it (the chain below checked them). */
export interface ErasedStage {
  readonly name: string;
  run(state: AnyState, env: PipelineEnv): AnyState | Stop | Promise<AnyState | Stop>;
}

export class StageChain<S extends AnyState, Names extends readonly string[]> {
  constructor(readonly stages: readonly ErasedStage[], readonly names: Names) {}

  then<N extends string, O extends S>(stage: Stage<N, S, O>): StageChain<O, readonly [...Names, N]> {
    // `then` accepts only a stage whose input is this chain's output type (Stage.run is checked strictly);
    // the runner holds it erased, as ErasedStage (whose run, a method, accepts any stage state).
    return new StageChain<O, readonly [...Names, N]>([...this.stages, stage], [...this.names, stage.name] as const);
  }
}

/** An empty chain to build on (the pipeline's own below; tests show it refusing a stage out of order). */
export function stageChain(): StageChain<Received, readonly []> {
  return new StageChain<Received, readonly []>([], []);
}

const CHAIN = stageChain()
  .then(authenticate)
  .then(decode)
  .then(envelope)
  .then(version)
  .then(headers)
  .then(route) // every method but tools/call stops here
  .then(findTool)
  .then(paramHeaders)
  .then(clientCapabilities)
  .then(requestState)
  .then(shape)
  .then(context)
  .then(check)
  .then(authorize)
  .then(approval)
  .then(task) // a call that becomes a task is answered here (CreateTaskResult); its run goes on below
  .then(claim) // the approval claim: immediately before execute, after every refusal that can come first
  .then(execute)
  .then(output);

/** The stages in order, as the runner runs them. */
export const STAGE_LIST: readonly ErasedStage[] = CHAIN.stages;

/** The named stages of the pipeline, in order. Stages after `route` run for `tools/call` only. */
export const STAGES = CHAIN.names;

/** Index of the first stage that runs only for `tools/call`. */
export const FIRST_CALL_STAGE = STAGES.indexOf('find-tool');

/** Index of `execute`: where a task's later rounds resume the runner. */
export const EXECUTE_STAGE = STAGES.indexOf('execute');
