import type { ToolContext, ToolRunResult } from '../../../src/index.js';
import type { MotionPlan } from './motion-plan.js';
import type { MotionReport } from './robot-controller.js';
import type { RobotDeps } from './robot-deps.js';
import { refusalResult, type CallRecord } from './tool-call-record.js';

function fmt(p: { x: number; y: number; z: number }): string {
  return `(${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm`;
}

/** The exact plan as the human sees it in the approval form. */
export function describePlanForApproval(deps: RobotDeps, toolName: string, plan: MotionPlan): string {
  const t = plan.trajectory;
  const via = plan.targets.length > 1 ? ` via ${plan.targets.slice(0, -1).map((w) => fmt({ x: w.x_mm, y: w.y_mm, z: w.z_mm })).join(', ')}` : '';
  return [
    `Approve this motion of the simulated ${deps.controller.sim.preset.displayName}?`,
    `Tool ${toolName}, plan ${plan.id}, SHA-256 ${plan.hash}.`,
    `TCP from ${fmt(plan.startTcp)} to ${fmt(plan.endTcp)}${via} (base frame), ${plan.path === 'linear' ? 'straight-line' : 'joint-space'} path.`,
    `Duration ${t.durationS.toFixed(2)} s; peak TCP speed ${t.peaks.peakTcpSpeedMmS.toFixed(1)} mm/s (cap ${deps.controller.sim.limits.maxTcpSpeedMmS}); largest displacement ${plan.maxDisplacementMm.toFixed(0)} mm.`,
    `Final joints: [${t.endJointsDeg.map((q) => q.toFixed(1)).join(', ')}] degrees.`,
    plan.toolContactObjectIds.length > 0 ? `The fingertips may touch: ${plan.toolContactObjectIds.join(', ')}.` : 'No contact with any object is planned.',
    ...(plan.gripperAction !== null ? [`Then the gripper closes: ${plan.gripperAction.strategy}, ${plan.gripperAction.force_n} N.`] : []),
    'Checked: workspace envelope, joint limits, speed and acceleration caps, collisions along the whole path.',
  ].join('\n');
}

/**
 * Stages `approval` and `execute` for a plan that passed the planning stages. Returns the motion report,
 * or the result to send instead (an approval question or a refusal).
 */
export async function approveAndRun(deps: RobotDeps, ctx: ToolContext, record: CallRecord, plan: MotionPlan): Promise<{ report: MotionReport } | { result: ToolRunResult }> {
  record.planHash = plan.hash;
  const verdict = deps.approval.decide(ctx, plan, deps.controller.stopEpoch, () => describePlanForApproval(deps, ctx.toolName, plan));
  record.approval = verdict.decision;
  if (verdict.kind === 'ask') {
    record.trail.ask('approval', `asked the user to approve plan ${plan.id}`);
    return { result: verdict.result };
  }
  if (verdict.kind === 'refuse') return { result: refusalResult(record.trail.refuse(verdict.refusal)) };
  record.trail.pass('approval', `${verdict.decision.decision}: ${verdict.decision.reason}`);
  // Written before the arm moves: if the process dies mid-motion, the log shows a motion whose outcome
  // is unknown (a motion_start without its tool_call), never nothing.
  deps.audit.append({ type: 'motion_start', tool: ctx.toolName, request_id: ctx.requestId, transport: ctx.transport, plan_id: plan.id, plan_hash: plan.hash, approval: verdict.decision });
  const run = deps.controller.runMotion(plan, {
    signal: ctx.signal,
    onProgress: (fraction) => ctx.progress(Math.round(fraction * 1000) / 1000, 1, `motion ${Math.round(fraction * 100)}%`),
  });
  if (!(run instanceof Promise)) return { result: refusalResult(record.trail.refuse(run)) };
  const report = await run;
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
