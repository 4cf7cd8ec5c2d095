// The schema benchmark's four fixtures (issue 31 item 1): the grasp tool and the 30-property
// trajectory tool, each with valid and invalid arguments. Shared by the bench and its profiler.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'schemas');
const load = (name: string): object => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as object;

export interface SchemaCase {
  readonly name: string;
  readonly schema: object;
  readonly data: unknown;
  readonly valid: boolean;
}

export const graspSchema = load('grasp.json');
export const trajectorySchema = load('trajectory.json');

const waypoint = (i: number) => ({ position: { x: 0.1 * i, y: 0.2, z: 0.3 }, orientation: { qx: 0, qy: 0, qz: 0, qw: 1 }, time_from_start: i * 0.5, joint_positions: [0, 0.5, 1, 1.5, -1, 0.2, 0] });
const trajectoryValid = {
  trajectory_id: 'traj-001', waypoints: Array.from({ length: 10 }, (_, i) => waypoint(i)),
  obstacles: [{ id: 'table', kind: 'box', size: [1, 0.6, 0.05] }, { id: 'cup', kind: 'cylinder', size: [0.04, 0.1] }],
  max_velocity: 0.5, max_acceleration: 1, interpolation: 'cubic', frame: 'base', blocking: true, priority: 3,
  tolerance: { position: 0.001, orientation: 0.01 }, tool: { name: 'gripper', tcp_offset: [0, 0, 0.12] }, payload_kg: 0.4,
  collision_check: true, retries: 1, timeout_s: 30, tags: ['demo', 'pick'], speed_scale: 0.5, gripper_action: 'close',
  gripper_force: 15, dry_run: false, safety_zone: { min: [-1, -1, 0], max: [1, 1, 1.5] }, stop_on_contact: true,
  contact_threshold_n: 20, log_level: 'info', request_id: 'req_42',
};
const trajectoryInvalid = {
  ...trajectoryValid, waypoints: [...trajectoryValid.waypoints.slice(0, 9), { position: { x: '0.1', y: 0, z: 0 }, time_from_start: -1 }],
  priority: 11, frame: 'moon', speed: 3,
};

export const SCHEMA_CASES: readonly SchemaCase[] = [
  { name: 'grasp valid', schema: graspSchema, data: { target_position: { x: 0.42, y: -0.1, z: 0.25 }, force: 15, grasp_strategy: 'pinch', timeout: 5 }, valid: true },
  { name: 'grasp invalid', schema: graspSchema, data: { target_position: { x: '0.42', y: -0.1 }, force: 45, grasp_strategy: 'claw', speed: 3 }, valid: false },
  { name: 'trajectory valid', schema: trajectorySchema, data: trajectoryValid, valid: true },
  { name: 'trajectory invalid', schema: trajectorySchema, data: trajectoryInvalid, valid: false },
];
