/**
 * The safety pipeline's stage names, in the order every motion call passes them. `schema` is the
 * Toolwright server's own inputSchema check; the rest run in the tool code (motion-safety.ts,
 * approval-gate.ts, robot-controller.ts) and each refusal names its stage.
 */
export const SAFETY_STAGES = [
  'schema',
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
  readonly records: StageRecord[] = [{ stage: 'schema', outcome: 'pass' }];

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
