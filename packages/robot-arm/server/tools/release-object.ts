import { createHash } from 'node:crypto';
import { canonicalJson, type Tool } from 'toolwright';
import { plannedReleaseOf } from '../../view/planned-motion.js';
import type { ReleasePlan } from '../../model/arm-model.js';
import { planChangedMessage, type ApprovalSubject } from '../approval-gate.js';
import { worldOf, type WorldState } from '../world-binding.js';
import { plannedMotionJson, round3 } from '../motion-flow.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';
import { driverFaultRefusal, refusalResult } from '../tool-call-record.js';
import type { ReleaseResult } from '../../driver/arm-driver.js';

type Landing = Extract<ReleasePlan, { ok: true }>;

/** The release as an approval subject: the hash covers the object, where it lands and the arm's pose. */
function releaseSubject(landing: Landing, world: WorldState): ApprovalSubject {
  const r = (v: number): number => Math.round(v * 1000) / 1000;
  const hash = createHash('sha256').update(canonicalJson({
    kind: 'release',
    object: landing.objectId,
    landing: [r(landing.position.x), r(landing.position.y), r(landing.position.z)],
    drop_mm: r(landing.dropHeightMm),
    world,
  })).digest('hex');
  return { id: `release-${hash.slice(0, 16)}`, hash, kind: 'release', maxDisplacementMm: 0, maxJointTravelDeg: 0, world };
}

/** The release in one line, as a `plan_changed` refusal quotes it. */
function releaseBrief(landing: Landing | null, subject: ApprovalSubject | null): string {
  if (landing === null || subject === null) return 'the gripper holds nothing to release';
  const p = landing.position;
  return `${subject.id}: ${landing.objectId} falls ${landing.dropHeightMm.toFixed(1)} mm and lands at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm`;
}

function describeRelease(deps: RobotDeps, landing: Landing, subject: ApprovalSubject): string {
  const p = landing.position;
  return [
    `Approve releasing ${landing.objectId} from the gripper of the simulated ${deps.controller.model.preset.displayName}?`,
    `Release ${subject.id}, SHA-256 ${subject.hash}.`,
    `The arm does not move. ${landing.objectId} falls ${landing.dropHeightMm.toFixed(1)} mm straight down (at most ${deps.model.maxReleaseDropMm} mm allowed) and lands on the table at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm (its centre, base frame), clear of every other object.`,
  ].join('\n');
}

/**
 * `release_object`: opens the gripper. A release is a motion of the object: where it lands is computed
 * first, landing on another object, falling more than 50 mm or letting go of a tilted object is refused,
 * and a human approves the landing under the same rule as motions.
 */
export function releaseObjectTool(deps: RobotDeps): Tool {
  return robotTool(deps, {
    name: 'release_object',
    title: 'Release object',
    description:
      'Open the gripper and let go of the held object; it drops straight down onto the table. Takes no arguments. ' +
      `Use after grasp_object_force_control and move_arm_to_pose have carried the object, upright, to a free spot with its bottom at most ${deps.model.maxReleaseDropMm} mm above the table: a release that would land on another object or drop it farther is refused. ` +
      'A human approves where it will land. Does not move the arm. Not needed when the gripper holds nothing (get_device_status shows what is held).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    steps: (s) => [
      s.finiteArguments(),
      s.stateGate(() => 'gripper'),
      s.rule('collision', () => {
        const landing = deps.controller.model.planRelease(deps.controller.status());
        if (landing.ok) return `lands on the table after ${landing.dropHeightMm.toFixed(1)} mm`;
        return landing.code === 'not_holding' ? 'nothing held' : { stage: 'collision', code: landing.code, message: landing.message };
      }),
    ],
    skipReason: 'the arm does not move',
    async run({ ctx, record }) {
      const status = deps.controller.status();
      // Computed again from the same state: nothing can move the arm or the object between the step and here.
      const landing = deps.controller.model.planRelease(status);
      if (!landing.ok) {
        record.trail.pass('execute', 'nothing held');
        record.summary = { released: false };
        return { content: [{ type: 'text', text: 'The gripper holds nothing; it is open. Nothing changed.' }], structuredContent: { released: false } };
      }
      const subject = releaseSubject(landing, worldOf(status));
      record.planHash = subject.hash;
      // A console wait holds the motion slot: no other call moves the arm (and the held object) while
      // the operator looks at this landing (issue 30 item 1).
      const hold = deps.approval.asksOperator(ctx, subject) ? deps.controller.holdSlot(record) : () => undefined;
      if (typeof hold !== 'function') return refusalResult(record.trail.refuse(hold));
      let released: ReleaseResult;
      try {
        const verdict = await deps.approval.decide(ctx, subject, deps.controller.stopEpoch, () => describeRelease(deps, landing, subject), plannedMotionJson(plannedReleaseOf(landing, subject.hash)), releaseBrief(landing, subject));
        record.approval = verdict.decision;
        if (verdict.kind === 'ask') {
          record.trail.ask('approval', `asked the user to approve ${subject.id}`);
          return verdict.result;
        }
        if (verdict.kind === 'refuse') return refusalResult(record.trail.refuse(verdict.refusal));
        record.trail.pass('approval', `${verdict.decision.decision}: ${verdict.decision.reason}`);
        // After the wait: the release computed again against the world now must be the one approved.
        const busy = deps.controller.holdSlot(record);
        if (typeof busy !== 'function') return refusalResult(record.trail.refuse(busy));
        busy();
        const nowStatus = deps.controller.status();
        const nowLanding = deps.controller.model.planRelease(nowStatus);
        const nowSubject = nowLanding.ok ? releaseSubject(nowLanding, worldOf(nowStatus)) : null;
        if (nowSubject?.hash !== subject.hash) {
          const message = planChangedMessage({ brief: releaseBrief(landing, subject), world: subject.world }, { brief: nowLanding.ok ? releaseBrief(nowLanding, nowSubject) : nowLanding.code === 'not_holding' ? releaseBrief(null, null) : `no release is possible (${nowLanding.code}: ${nowLanding.message})`, world: worldOf(nowStatus) });
          return refusalResult(record.trail.refuse({ stage: 'approval', code: 'plan_changed', message }));
        }
        try {
          released = await deps.controller.driver.release();
        } catch (error) {
          return refusalResult(record.trail.refuse(driverFaultRefusal(error, 'open the gripper')));
        }
      } finally {
        hold();
      }
      if (!released.ok) return refusalResult(record.trail.refuse({ stage: 'collision', code: released.code, message: released.message }));
      record.trail.pass('execute', `released ${released.objectId}`);
      const p = released.position;
      const summary = { released: true, object_id: released.objectId, resting_position_mm: { x_mm: round3(p.x), y_mm: round3(p.y), z_mm: round3(p.z) }, drop_height_mm: round3(released.dropHeightMm), broke: released.broke };
      record.summary = summary;
      return {
        content: [{ type: 'text', text: `Released ${released.objectId}; it dropped ${released.dropHeightMm.toFixed(1)} mm and rests at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm (base frame)${released.broke ? '; it broke' : ''}.` }],
        structuredContent: summary,
      };
    },
  });
}
