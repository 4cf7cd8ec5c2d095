/**
 * The safety steps robot tools share, one per check, each a function of the call returning a refusal
 * or nothing. A tool lists the ones that apply from this kit, typed by its arguments (robot-tool.ts
 * runs them in SAFETY_STAGES order).
 */
import { checkCaps, checkPathClear, checkRange, checkTargetsInEnvelope, findNonFinite, planFromCurrentPose, type PlanRequest } from './motion-safety.js';
import type { MotionPlan, PoseTarget } from './motion-plan.js';
import type { CommandKind } from './motion-rate-limits.js';
import { PlanStore } from './plan-store.js';
import type { RobotDeps } from './robot-deps.js';
import type { SafetyCall, SafetyStep, StepVerdict } from './robot-tool.js';
import type { Refusal } from './safety-stages.js';

function planned<A>(call: SafetyCall<A>, stage: string): MotionPlan {
  if (call.plan === undefined) throw new Error(`stage ${stage} needs a plan; list a step that sets it before this one`);
  return call.plan;
}

/** The step constructors for a tool whose validated arguments are `A`. */
export function stepKit<A>(deps: RobotDeps) {
  const kit = {
    /** Stage `finite_and_range`: no number anywhere in the arguments is infinite or NaN. */
    finiteArguments(): SafetyStep<A> {
      return {
        stage: 'finite_and_range',
        check({ args }) {
          const bad = findNonFinite(args);
          return bad !== null ? { stage: 'finite_and_range', code: 'non_finite', message: `${bad} must be a finite number` } : undefined;
        },
      };
    },
    /** Stage `finite_and_range`: one number within its range and unit (refused, never clamped). */
    inRange(name: string, valueOf: (args: A) => number | undefined, min: number, max: number, unit: string): SafetyStep<A> {
      return {
        stage: 'finite_and_range',
        check({ args }) {
          const value = valueOf(args);
          return value === undefined ? undefined : (checkRange(name, value, min, max, unit) ?? undefined);
        },
      };
    },
    /**
     * Stage `state_gate`: a broken audit chain not yet acknowledged (motion and gripper commands
     * only: planning moves nothing), then the controller's gate (e-stop latch, fault, stale, busy),
     * then the rate limit of this kind of command, a token of a bucket in the server's store.
     */
    stateGate(kindOf: (args: A) => CommandKind): SafetyStep<A> {
      return {
        stage: 'state_gate',
        check: ({ args, store }) => {
          const kind = kindOf(args);
          const refusal = (kind !== 'plan' ? deps.auditChain.motionRefusal() : null) ?? deps.controller.stateGate();
          if (refusal !== null) return refusal;
          return kind === 'gripper' ? undefined : deps.rateLimits.take(store, kind).then((limited) => limited ?? undefined);
        },
      };
    },
    /** Stage `state_gate`: the plan `plan_trajectory` stored under `idOf(args)`, read from the server's store; it goes on the call. */
    storedPlan(idOf: (args: A) => string): SafetyStep<A> {
      return {
        stage: 'state_gate',
        async check(call): Promise<StepVerdict> {
          const stored = await new PlanStore(call.store, deps.model).get(idOf(call.args));
          if ('stage' in stored) return stored;
          call.plan = stored.plan;
          call.storedUntil = stored.expiresAt;
          return undefined;
        },
      };
    },
    /** Stage `workspace_envelope`: every target TCP position inside the reach sphere, above the table, off the base. */
    targetsInEnvelope(targetsOf: (call: SafetyCall<A>) => readonly PoseTarget[]): SafetyStep<A> {
      return { stage: 'workspace_envelope', check: (call) => checkTargetsInEnvelope(deps.controller, targetsOf(call)) ?? undefined };
    },
    /** Stage `ik_and_joint_limits`: plans from the arm's current pose; the plan goes on the call. */
    planMotion(requestOf: (call: SafetyCall<A>) => PlanRequest): SafetyStep<A> {
      return {
        stage: 'ik_and_joint_limits',
        check(call) {
          const plan = planFromCurrentPose(deps.controller, requestOf(call));
          if ('stage' in plan) return plan;
          call.plan = plan;
          return `${plan.trajectory.segments.length} segment(s), ${plan.trajectory.durationS.toFixed(2)} s`;
        },
      };
    },
    /** Stage `speed_and_acceleration`: the plan's measured peaks against the caps, and the longest motion. */
    withinCaps(): SafetyStep<A> {
      return {
        stage: 'speed_and_acceleration',
        check(call) {
          const plan = planned(call, 'speed_and_acceleration');
          return checkCaps(deps.controller, plan) ?? `peak TCP ${plan.trajectory.peaks.peakTcpSpeedMmS.toFixed(1)} mm/s`;
        },
      };
    },
    /** Stage `collision`: the model validates every sample of the path against every body. */
    pathClear(): SafetyStep<A> {
      return {
        stage: 'collision',
        check(call) {
          const plan = planned(call, 'collision');
          return checkPathClear(deps.controller, plan) ?? `${plan.trajectory.samples.length} samples clear`;
        },
      };
    },
    /** The planning stages of a motion from the current pose: envelope, plan, caps, collision. */
    planningSteps(requestOf: (call: SafetyCall<A>) => PlanRequest): SafetyStep<A>[] {
      return [kit.targetsInEnvelope((call) => requestOf(call).targets), kit.planMotion(requestOf), kit.withinCaps(), kit.pathClear()];
    },
    /** A tool-specific rule of one stage (e.g. the grasp's approach length); `detail` is the pass detail. */
    rule(stage: SafetyStep<A>['stage'], check: (call: SafetyCall<A>) => Refusal | string | null | undefined): SafetyStep<A> {
      return { stage, check: (call) => check(call) ?? undefined };
    },
    /** The plan the call carries (set by an earlier step). */
    planOf: (call: SafetyCall<A>): MotionPlan => planned(call, 'this'),
  };
  return kit;
}

/** The kit a tool's `steps` receives. */
export type StepKit<A> = ReturnType<typeof stepKit<A>>;
