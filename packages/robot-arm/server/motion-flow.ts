import type { JsonValue, ToolContext, ToolRunResult } from 'toolwright';
import { anySignal } from './any-signal.js';
import { plannedMotionOf } from '../view/planned-motion.js';
import type { PlannedMotion } from '../view/arm-feed.js';
import type { ArmStatus } from '../driver/arm-driver.js';
import type { GripperAction, MotionPlan } from './motion-plan.js';
import type { PlanStore } from './plan-store.js';
import type { MotionReport } from './robot-controller.js';
import type { RobotDeps } from './robot-deps.js';
import { refusalResult, type CallRecord } from './tool-call-record.js';
import { isRefusal, type Refusal } from './safety-stages.js';
import { planChangedMessage, type ApprovalDecision } from './approval-gate.js';
import { storeRefusal } from './store-refusal.js';
import { worldDigest, worldOf } from './world-binding.js';

function fmt(p: { x: number; y: number; z: number }): string {
  return `(${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm`;
}

/** The clearance every moving body keeps (the simulator's default collision margin), mm. */
const CLEARANCE_MM = 5;

/** What the gripper will do, with the force and the object's limit side by side. */
function describeGripperAction(deps: RobotDeps, action: GripperAction): string {
  const g = deps.controller.model.preset.gripper;
  const force = `${action.force_n} N${action.default_for_class !== undefined ? ` (default for a ${action.default_for_class})` : ''}`;
  if (action.object_id === undefined) return `Then the gripper closes (${action.strategy}) with ${force}; no object is at the target (gripper range ${g.minForceN}–${g.maxForceN} N).`;
  const limit = action.object_max_force_n === null || action.object_max_force_n === undefined ? 'it is not fragile' : `it tolerates at most ${action.object_max_force_n} N`;
  return `Then the gripper closes on ${action.object_id} (${action.strategy}) with ${force}; ${limit}; holding it needs at least ${action.required_force_n} N (gripper range ${g.minForceN}–${g.maxForceN} N).`;
}

/** The exact plan as the human sees it in the approval form. */
export function describePlanForApproval(deps: RobotDeps, toolName: string, plan: MotionPlan): string {
  const t = plan.trajectory;
  const via = plan.targets.length > 1 ? ` via ${plan.targets.slice(0, -1).map((w) => fmt({ x: w.x_mm, y: w.y_mm, z: w.z_mm })).join(', ')}` : '';
  return [
    `Approve this motion of the simulated ${deps.controller.model.preset.displayName}?`,
    `Tool ${toolName}, plan ${plan.id}, SHA-256 ${plan.hash}.`,
    `TCP from ${fmt(plan.startTcp)} to ${fmt(plan.endTcp)}${via} (base frame), ${plan.path === 'linear' ? 'straight-line' : 'joint-space'} path.`,
    plan.world.held === null ? 'The gripper holds nothing.' : `The gripper holds ${plan.world.held.id}; it moves with the TCP.`,
    `Duration ${t.durationS.toFixed(2)} s; peak TCP speed ${t.peaks.peakTcpSpeedMmS.toFixed(1)} mm/s (cap ${deps.controller.model.limits.maxTcpSpeedMmS}); largest displacement ${plan.maxDisplacementMm.toFixed(0)} mm.`,
    `Final joints: [${t.endJointsDeg.map((q) => q.toFixed(1)).join(', ')}] degrees.`,
    `Largest joint excursion from the start anywhere on the path: ${plan.maxJointTravelDeg.toFixed(0)}°.`,
    plan.toolContactObjectIds.length > 0
      ? `Only the fingertip pads may touch ${plan.toolContactObjectIds.join(', ')}, and only within ${deps.model.padContactWindowMm} mm of the path's start or end; the gripper body and every other link keep ${CLEARANCE_MM} mm from it.`
      : 'No contact with any object is planned.',
    ...(plan.gripperAction !== null ? [describeGripperAction(deps, plan.gripperAction)] : []),
    `Checked: workspace envelope, joint limits, speed and acceleration caps, and the clearance (${CLEARANCE_MM} mm) of every link, the fingertips and any held object from the table, the base, the objects and the arm itself, along the whole path.`,
  ].join('\n');
}

/**
 * Whether `approveAndRun` will go straight to the motion for this call, asking nothing: the plan needs
 * no human, or this is the retry carrying the answer to the approval question (a motion task starts
 * only then, so it never waits on an approval). A declined or stale answer still ends in a refusal.
 */
export function approvalSettled(deps: RobotDeps, ctx: ToolContext, plan: MotionPlan): boolean {
  // `approval` is the key ApprovalGate asks under; without an answer there it would ask again.
  return !deps.approval.requiresApproval(plan) || (ctx.requestState !== undefined && ctx.inputResponses?.approval !== undefined);
}

/** A progress message: how far along the path, and where the TCP is now. */
function progressMessage(fraction: number, status: ArmStatus): string {
  return `motion ${Math.round(fraction * 100)}%, TCP at ${fmt(status.tcp)} (base frame)`;
}

/** The planned motion as the approval's JSON details (the console draws it). */
export function plannedMotionJson(motion: PlannedMotion): JsonValue {
  return {
    kind: motion.kind,
    path: motion.path.map((point) => [...point]),
    durationS: motion.durationS,
    peakSpeedMmS: motion.peakSpeedMmS,
    gripForceN: motion.gripForceN,
    planHash: motion.planHash,
    ...(motion.release !== undefined ? { release: { objectId: motion.release.objectId, dropMm: motion.release.dropMm } } : {}),
  };
}

/** How {@link approveAndRun} treats its plan besides approving and running it. */
export interface RunOptions {
  /** The plan the same request gets against the world now (a `plan_changed` refusal describes it). */
  readonly replan?: () => MotionPlan | Refusal;
  /**
   * The plan came from the plan store (`execute_trajectory`): it is taken from there right after its
   * approval, so it runs at most once across every instance sharing the store, and put back (until
   * `expiresAt`) when the motion does not start after all.
   */
  readonly stored?: { readonly plans: PlanStore; readonly expiresAt: number };
}

/**
 * Stages `approval` and `execute` for a plan that passed the planning stages. Returns the motion report,
 * or the result to send instead (an approval question or a refusal).
 */
export async function approveAndRun(deps: RobotDeps, ctx: ToolContext, record: CallRecord, plan: MotionPlan, options: RunOptions = {}): Promise<{ report: MotionReport } | { result: ToolRunResult }> {
  const { replan } = options;
  record.planHash = plan.hash;
  const asksOperator = deps.approval.asksOperator(ctx, plan);
  if (asksOperator) {
    // Planning (a path check) can outlast the snapshot's age bound on a busy machine: the slot is taken
    // on a current snapshot (waited for within the bound; a silent arm is still refused by holdSlot).
    const epoch = deps.controller.stopEpoch;
    await deps.controller.freshStatus();
    if (deps.controller.stopEpoch !== epoch) {
      return { result: refusalResult(record.trail.refuse({ stage: 'state_gate', code: 'stopped_before_start', message: 'the arm was stopped after this motion was checked and before it started' })) };
    }
  }
  // The world the plan was computed against must still be the world (a stored plan, or awaits since the planning steps).
  const before = planChangedRefusal(deps, plan, replan);
  if (before !== null) return { result: refusalResult(record.trail.refuse(before)) };
  // A console wait holds the motion slot until the motion has run: nothing else moves the arm or what
  // it holds between what the operator was shown and what runs. An elicitation round trip ends the
  // request, so it holds nothing; its retry re-plans against the world then (issue 30 item 1).
  const hold = asksOperator ? deps.controller.holdSlot(record) : () => undefined;
  if (typeof hold !== 'function') return { result: refusalResult(record.trail.refuse(hold)) };
  try {
    return await approveAndRunHeld(deps, ctx, record, plan, options);
  } finally {
    hold();
  }
}

/** The plan in one line, as a `plan_changed` refusal quotes it. */
function planBrief(plan: MotionPlan): string {
  const held = plan.world.held === null ? 'holding nothing' : `holding ${plan.world.held.id}`;
  return `${plan.id}: TCP from ${fmt(plan.startTcp)} to ${fmt(plan.endTcp)}, ${held}, ${plan.trajectory.durationS.toFixed(2)} s`;
}

/**
 * `plan_changed` when the world now differs from the one the plan was computed against (the plan the
 * same request gets now is then another plan), with both plans described; null when it is the same.
 */
function planChangedRefusal(deps: RobotDeps, plan: MotionPlan, replan: (() => MotionPlan | Refusal) | undefined): Refusal | null {
  const world = worldOf(deps.controller.status());
  if (worldDigest(world) === worldDigest(plan.world)) return null;
  const now = replan?.();
  const brief = now === undefined
    ? `the stored plan starts from a world that is gone; call plan_trajectory again`
    : 'stage' in now ? `no plan is possible (${now.code}: ${now.message})` : planBrief(now);
  return { stage: 'approval', code: 'plan_changed', message: planChangedMessage({ brief: planBrief(plan), world: plan.world }, { brief, world }) };
}

async function approveAndRunHeld(deps: RobotDeps, ctx: ToolContext, record: CallRecord, plan: MotionPlan, options: RunOptions): Promise<{ report: MotionReport } | { result: ToolRunResult }> {
  const epoch = deps.controller.stopEpoch;
  const verdict = await deps.approval.decide(ctx, plan, epoch, () => describePlanForApproval(deps, ctx.toolName, plan), plannedMotionJson(plannedMotionOf(plan)), planBrief(plan));
  record.approval = verdict.decision;
  if (verdict.kind === 'ask') {
    record.trail.ask('approval', `asked the user to approve plan ${plan.id}`);
    return { result: verdict.result };
  }
  if (verdict.kind === 'refuse') return { result: refusalResult(record.trail.refuse(verdict.refusal)) };
  record.trail.pass('approval', `${verdict.decision.decision}: ${verdict.decision.reason}`);
  const stored = options.stored;
  if (stored === undefined) return startMotion(deps, ctx, record, plan, verdict.decision, epoch, options.replan);
  // Every check after this await (a stop, a cancel, a lost client, the world) comes after the take.
  let taken: boolean;
  try {
    taken = await stored.plans.take(plan.id);
  } catch (error) {
    return { result: refusalResult(record.trail.refuse(storeRefusal(error, 'execute'))) };
  }
  if (!taken) {
    return { result: refusalResult(record.trail.refuse({ stage: 'execute', code: 'plan_gone', message: `plan ${plan.id} is no longer stored: another call ran it, or it expired, after this call's checks` })) };
  }
  const started = await startMotion(deps, ctx, record, plan, verdict.decision, epoch, options.replan);
  if ('result' in started) {
    // Nothing moved: the plan is usable again, as a refusal before the take would have left it. If the
    // store fails here the plan is gone; the refusal stands, and plan_trajectory makes it again.
    await stored.plans.restore({ plan, expiresAt: stored.expiresAt }).catch(() => undefined);
  }
  return started;
}

/** From an approved plan to a started motion: every check of the world again after the waits, then the driver. */
async function startMotion(deps: RobotDeps, ctx: ToolContext, record: CallRecord, plan: MotionPlan, approval: ApprovalDecision, epoch: number, replan: (() => MotionPlan | Refusal) | undefined): Promise<{ report: MotionReport } | { result: ToolRunResult }> {
  await deps.controller.freshStatus();
  // The wait for a fresh snapshot is an await: a stop during it voids this motion, as during the approval.
  if (deps.controller.stopEpoch !== epoch) {
    return { result: refusalResult(record.trail.refuse({ stage: 'approval', code: 'approval_cancelled', message: 'a stop_arm since the approval was requested cancelled it' })) };
  }
  // After the wait: the plan the request gets against the world now must be the plan approved.
  const changed = planChangedRefusal(deps, plan, replan);
  if (changed !== null) return { result: refusalResult(record.trail.refuse(changed)) };
  // Loss of the client is a controlled stop (a 2025 session keeps a call running after its stream
  // drops, so the client can resume it; an arm does not move on unwatched): not started at all if
  // the client already left during the approval, else stopped as it leaves.
  if (ctx.connectionLost.aborted) {
    return { result: refusalResult(record.trail.refuse({ stage: 'execute', code: 'client_lost', message: 'the client\'s connection closed before the motion started' })) };
  }
  // A cancel that arrived during the approval or the wait for a fresh snapshot: the motion never starts.
  if (ctx.signal.aborted) {
    return { result: refusalResult(record.trail.refuse({ stage: 'execute', code: 'cancelled', message: 'the request was cancelled before the motion started; nothing moved' })) };
  }
  // Written before the arm moves: if the process dies mid-motion, the log shows a motion whose outcome
  // is unknown (a motion_start without its tool_call), never nothing.
  deps.audit.append({ type: 'motion_start', tool: ctx.toolName, request_id: ctx.requestId, transport: ctx.transport, plan_id: plan.id, plan_hash: plan.hash, approval });
  const report = await deps.controller.runMotion(plan, {
    owner: record,
    signal: anySignal(ctx.signal, ctx.connectionLost),
    // In a task this updates the task (tasks/get, notifications/tasks); otherwise it is a progress notification when the request sent a token.
    onProgress: (fraction, status) => ctx.progress(Math.round(fraction * 1000) / 1000, 1, progressMessage(fraction, status)),
  });
  if (isRefusal(report)) return { result: refusalResult(record.trail.refuse(report)) };
  record.motion = report;
  record.trail.pass('execute', `${report.motionId}: ${report.status}`);
  return { report };
}

/** The result of a finished (or stopped) motion. */
export function motionResult(report: MotionReport, extra: Record<string, unknown> = {}): { content: { type: 'text'; text: string }[]; structuredContent: Record<string, unknown>; isError?: boolean } {
  const p = report.finalTcpMm;
  const structured = {
    motion_id: report.motionId,
    plan_id: report.planId,
    status: report.status,
    planned_duration_s: round3(report.plannedDurationS),
    simulated_time_s: round3(report.simulatedTimeS),
    final_tcp_mm: { x_mm: round3(p.x), y_mm: round3(p.y), z_mm: round3(p.z) },
    final_joints_deg: report.finalJointsDeg.map(round3),
    ...(report.detail !== undefined ? { detail: report.detail } : {}),
    ...extra,
  };
  const ok = report.status === 'completed';
  const text = ok
    ? `Motion ${report.motionId} completed in ${report.simulatedTimeS.toFixed(2)} s; TCP now at ${fmt(p)} (base frame).`
    : `Motion ${report.motionId} did not complete: ${report.status}${report.detail !== undefined ? ` (${report.detail})` : ''}. TCP stopped at ${fmt(p)} (base frame).`;
  return { content: [{ type: 'text', text }], structuredContent: structured, ...(ok ? {} : { isError: true }) };
}

export function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
