/**
 * Robot-arm simulator for the Toolwright reference server (issue 8). Plain TypeScript, no physics engine.
 *
 * Conventions (everywhere): base frame right-handed, +z up, origin at the centre of the base on the
 * table (table plane z = 0); millimetres, degrees, seconds (the clock counts milliseconds), newtons,
 * kilograms. Orientation is roll/pitch/yaw in degrees, R = Rz(yaw)·Ry(pitch)·Rx(roll) (xArm
 * convention); tool pointing straight down is roll 180°, pitch 0°. The TCP is the flange centre.
 *
 * This folder is the physics only: pure functions and the small stateful parts (clock, gripper,
 * sensors, motion executor). It imports nothing of the package. The simulated cell that keeps the
 * arm's state, `RobotSimulation` (driver/robot-simulation.ts), sits above the arm model it plans
 * and checks with (model/arm-model.ts), and is what SimArmDriver drives; its usual use:
 *
 *   const sim = createRobotSimulation({ preset: 'ur5e', seed: 1 });      // or 'xarm6'
 *   const plan = sim.planToPose({ position: { x: -420, y: -220, z: 200 } }, { speedFraction: 0.5 });
 *   if (!plan.ok) → plan.code ('invalid_input' | 'joint_limit' | 'unreachable' | 'path_unreachable'
 *                   | 'singularity' | 'did_not_converge') and plan.message
 *   sim.validateTrajectory(plan.trajectory, { contactAllowedWith })        // dry run: limits, envelope, collisions
 *   trajectoryDigest(plan.trajectory) / summarizeTrajectory(...)           // bind an approval to the exact plan
 *   const run = sim.execute(plan.trajectory, { contactAllowedWith: ['cup-1'] })
 *       → { ok: true, motionId, durationS } or a refusal with code 'busy' | 'estop_latched' | 'fault'
 *         | 'not_a_plan' | 'wrong_arm' | 'stale_start' | 'limit_exceeded' | 'outside_envelope' | 'collision'
 *   sim.advance(ms) / sim.step() / sim.runUntilSettled()                  // nothing moves unless time is advanced
 *   sim.stop()           → controlled stop along the path (≤ 0.3 s at default caps); never refused, idempotent
 *   sim.emergencyStop()  → freezes at once and latches; only sim.operatorResetEmergencyStop() clears it
 *   sim.grasp({ forceN: 15, strategy: 'parallel' }) / sim.release()
 *   sim.readForceTorque({ filter: 'kalman', axes: ['Fz'] }) / sim.captureCamera() / sim.status()
 *
 * Nothing a caller passes can widen a limit: joint, speed and acceleration caps come from the preset,
 * the envelope from the operator's options at construction; `speedFraction` (0.1–1.0) only scales down.
 * Out-of-range or non-finite inputs are refused with a code and message, never clamped.
 */
export { ARM_PRESETS, UR5E, XARM6, getArmPreset } from './arm-presets.js';
export type { ArmPreset, ArmPresetId, DhRow, ForceTorqueSensorSpec, GripperSpec, JointLimit, LinkShape } from './arm-presets.js';
export { wrapDeg, degToRad, radToDeg } from './angles.js';
export { forwardKinematics, frameToPose, tcpFrameRad, armFramesRad } from './forward-kinematics.js';
export type { ArmFrames, Frame, TcpPose } from './forward-kinematics.js';
export { inverseKinematics, TOOL_DOWN } from './inverse-kinematics.js';
export type { IkFailureCode, IkOptions, IkResult, IkTarget, OrientationTarget } from './inverse-kinematics.js';
export { fromRpyDeg, toRpyDeg } from './rotation.js';
export type { Mat3, RpyDeg } from './rotation.js';
export type { Vec3 } from './vector3.js';
export { fitTimeScaling, quintic, trapezoidal } from './time-scaling.js';
export type { PathTiming, TimeScaling, TimeScalingKind } from './time-scaling.js';
export { Trajectory, TRAJECTORY_SAMPLE_INTERVAL_S } from './trajectory.js';
export type { LimitReport, MotionState, TrajectorySample, TrajectorySegment } from './trajectory.js';
export { motionLimitsOf, planJointMotion, planPoseMotion, planWaypoints } from './trajectory-planner.js';
export type { CartesianTarget, MotionLimits, PlanFailureCode, PlanOptions, PlanResult } from './trajectory-planner.js';
export { summarizeTrajectory, trajectoryDigest } from './trajectory-digest.js';
export type { TrajectorySummary } from './trajectory-digest.js';
export { SimClock } from './sim-clock.js';
export type { TickListener } from './sim-clock.js';
export { checkPathEnvelope, checkPose, createEnvelope } from './workspace-envelope.js';
export type { EnvelopeCheck, EnvelopeOverrides, EnvelopeViolation, EnvelopeViolationCode, WorkspaceEnvelope } from './workspace-envelope.js';
export { checkArmCollision, checkPathCollision, ROBOT_BASE_ID, TABLE_ID } from './collision-check.js';
export type { CollisionHit, CollisionOptions, CollisionWorld, HeldObject, PathCollision } from './collision-check.js';
export { armCapsules, FINGER_LENGTH_MM, FINGERTIPS_LINK, selfCollisionPairs } from './arm-capsules.js';
export type { Capsule, ExcludedPair, JointHousing, SelfCollisionPair } from './arm-capsules.js';
export { signedDistance, segmentDistance } from './obstacle-geometry.js';
export type { Obstacle } from './obstacle-geometry.js';
export { defaultSceneObjects, OBJECT_ID_PATTERN, OBJECT_LABELS, validateSceneObjects } from './scene-objects.js';
export type { ObjectCondition, ObjectLabel, ObjectShape, SceneObjectSpec, SceneObjectState } from './scene-objects.js';
export { attemptGrasp, DEFAULT_GRIP_FORCE_BY_LABEL, defaultGripForceN, GRASP_SAFETY_FACTOR, requiredGripForceN } from './gripper.js';
export { MAX_RELEASE_DROP_MM, planRelease, type ReleasePlan } from './release-landing.js';
export type { GraspFailureCode, GraspOutcome, GraspRequest, GraspStrategy } from './gripper.js';
export { contactWrench, DEFAULT_CONTACT_MODEL } from './contact-model.js';
export type { ContactModel, ContactPoint, Wrench } from './contact-model.js';
export { FT_AXES, FT_FILTERS, ForceTorqueSensor } from './force-torque-sensor.js';
export type { FtAxis, FtFilter, FtReading } from './force-torque-sensor.js';
export { MovingAverage, ScalarKalmanFilter } from './signal-filters.js';
export { TableCamera } from './table-camera.js';
export type { ObjectDetection } from './table-camera.js';
export { SeededRandom } from './seeded-random.js';
export { MotionExecutor } from './motion-executor.js';
export type { MotionPhase, StopForecast } from './motion-executor.js';
