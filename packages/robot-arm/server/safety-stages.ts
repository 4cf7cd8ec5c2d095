/**
 * The safety pipeline's stage names, in the order every motion call passes them: the one list. `shape`
 * is the Toolwright pipeline's own inputSchema stage, recorded under its Toolwright name; the gating stages after it are the tool's safety
 * steps, run by one runner (robot-tool.ts); `approval` and `execute` are the tool body (motion-flow.ts);
 * `audit` closes every call. Each refusal names its stage.
 */
export const SAFETY_STAGES = [
  'shape',
  'finite_and_range',
  'state_gate',
  'workspace_envelope',
  'ik_and_joint_limits',
  'speed_and_acceleration',
  'collision',
  'approval',
  'execute',
  'audit',
] as const;

export type SafetyStage = (typeof SAFETY_STAGES)[number];

/** The stages a tool's safety steps belong to: after the schema check, before approval. */
export const GATING_STAGES = ['finite_and_range', 'state_gate', 'workspace_envelope', 'ik_and_joint_limits', 'speed_and_acceleration', 'collision'] as const satisfies readonly SafetyStage[];

export type GatingStage = (typeof GATING_STAGES)[number];

/** How one stage ended for one call. */
export interface StageRecord {
  readonly stage: SafetyStage;
  readonly outcome: 'pass' | 'refused' | 'asked' | 'skipped';
  readonly detail?: string;
}

/** Why a call was refused: the stage, a stable machine code and a message with units. */
export interface Refusal {
  readonly stage: SafetyStage;
  readonly code: string;
  readonly message: string;
}

/** The stage outcomes of one call, in order (goes into the audit record). */
export class StageTrail {
  readonly records: StageRecord[] = [{ stage: 'shape', outcome: 'pass' }];

  pass(stage: SafetyStage, detail?: string): void {
    this.records.push(detail === undefined ? { stage, outcome: 'pass' } : { stage, outcome: 'pass', detail });
  }

  skip(stage: SafetyStage, detail: string): void {
    this.records.push({ stage, outcome: 'skipped', detail });
  }

  ask(stage: SafetyStage, detail: string): void {
    this.records.push({ stage, outcome: 'asked', detail });
  }

  refuse(refusal: Refusal): Refusal {
    this.records.push({ stage: refusal.stage, outcome: 'refused', detail: `${refusal.code}: ${refusal.message}` });
    return refusal;
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'stage' in value && 'code' in value && 'message' in value;
}
