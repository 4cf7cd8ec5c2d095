/**
 * A simulated presence sensor for speed and separation monitoring (in the spirit of ISO 10218 and
 * ISO/TS 15066): a warning zone and a protective zone, each a set of boxes or vertical cylinders in
 * the robot base frame (mm), and where the person is. The simulation (`robot-simulation.ts`) acts on
 * what it reports: a person in the protective zone is a protective stop; a person in the warning zone
 * limits the TCP to {@link PresenceConfig.warningSpeedMmS}, and never more than the separation allows.
 */
import type { Vec3 } from './vector3.js';

/** An axis-aligned box in the base frame, mm (min <= max on every axis). */
export interface PresenceBox {
  readonly kind: 'box';
  readonly min: Vec3;
  readonly max: Vec3;
}

/** A vertical cylinder in the base frame, mm: centre (x, y), radius, from `zMinMm` up to `zMaxMm`. */
export interface PresenceCylinder {
  readonly kind: 'cylinder';
  readonly center: { readonly x: number; readonly y: number };
  readonly radiusMm: number;
  readonly zMinMm: number;
  readonly zMaxMm: number;
}

export type PresenceZone = PresenceBox | PresenceCylinder;

/** What the sensor watches and the speed a person in the warning zone allows. */
export interface PresenceConfig {
  readonly warningZones: readonly PresenceZone[];
  readonly protectiveZones: readonly PresenceZone[];
  /** TCP speed with a person in the warning zone, mm/s; below the preset's cap (default 100). */
  readonly warningSpeedMmS: number;
}

/** A change of the sensor's input: the zones, where the person is (null: nobody), or both. */
export interface PresenceUpdateInput {
  readonly config?: PresenceConfig;
  readonly person?: PersonPosition;
}

/** Where the person is: the nearest point of their body to the arm, base frame, mm; null when nobody is seen. */
export type PersonPosition = Vec3 | null;

/** `clear`: nobody in either zone. `warning`: in a warning zone only. `protective`: in a protective zone. */
export type PresenceZoneState = 'clear' | 'warning' | 'protective';

/** The sensor's report, as status and the console show it. */
export interface PresenceStatus {
  readonly zone: PresenceZoneState;
  readonly person: PersonPosition;
  readonly config: PresenceConfig;
  /** The TCP speed allowed now, mm/s: the preset's cap when clear, 0 in the protective zone. */
  readonly allowedTcpSpeedMmS: number;
  /** Distance from the person to the TCP, mm (null when nobody is seen). */
  readonly separationMm: number | null;
  /** The cap, t_r and a_stop the allowed speed was computed with (a planner re-times a path with them). */
  readonly limits: SeparationLimits;
}

export const DEFAULT_WARNING_SPEED_MM_S = 100;

/** Nobody watched, nobody seen. */
export const NO_PRESENCE_ZONES: PresenceConfig = Object.freeze({ warningZones: [], protectiveZones: [], warningSpeedMmS: DEFAULT_WARNING_SPEED_MM_S });

/** True when `p` lies inside `zone` (boundaries included). */
export function zoneContains(zone: PresenceZone, p: Vec3): boolean {
  if (zone.kind === 'box') {
    return p.x >= zone.min.x && p.x <= zone.max.x && p.y >= zone.min.y && p.y <= zone.max.y && p.z >= zone.min.z && p.z <= zone.max.z;
  }
  return p.z >= zone.zMinMm && p.z <= zone.zMaxMm && Math.hypot(p.x - zone.center.x, p.y - zone.center.y) <= zone.radiusMm;
}

/** Which zone the person is in (the protective zone wins where the two overlap). */
export function zoneOf(config: PresenceConfig, person: PersonPosition): PresenceZoneState {
  if (person === null) return 'clear';
  if (config.protectiveZones.some((z) => zoneContains(z, person))) return 'protective';
  if (config.warningZones.some((z) => zoneContains(z, person))) return 'warning';
  return 'clear';
}

/**
 * The largest speed v whose stopping distance v*t_r + v^2/(2*a_stop) fits in `separationMm`
 * (t_r the reaction time, one control step; a_stop the stop deceleration).
 */
export function separationSpeedMmS(separationMm: number, reactionS: number, stopDecelerationMmS2: number): number {
  if (!(separationMm > 0)) return 0;
  const a = stopDecelerationMmS2;
  return a * (-reactionS + Math.sqrt(reactionS * reactionS + (2 * separationMm) / a));
}

/** Distance travelled from speed `v` before standing still: v*t_r + v^2/(2*a_stop), mm. */
export function stoppingDistanceMm(speedMmS: number, reactionS: number, stopDecelerationMmS2: number): number {
  return speedMmS * reactionS + (speedMmS * speedMmS) / (2 * stopDecelerationMmS2);
}

/** Checks a configuration; returns the reason it is invalid, or null. `capMmS` is the preset's TCP cap. */
export function presenceConfigProblem(config: PresenceConfig, capMmS: number): string | null {
  const speed = config.warningSpeedMmS;
  if (!Number.isFinite(speed) || speed <= 0 || speed >= capMmS) {
    return `warningSpeedMmS must be above 0 and below the ${capMmS} mm/s cap, got ${String(speed)}`;
  }
  for (const [name, zones] of [['warning', config.warningZones], ['protective', config.protectiveZones]] as const) {
    for (const [i, zone] of zones.entries()) {
      const problem = zoneProblem(zone);
      if (problem !== null) return `${name} zone ${i}: ${problem}`;
    }
  }
  return null;
}

function zoneProblem(zone: PresenceZone): string | null {
  const numbers = zone.kind === 'box'
    ? [zone.min.x, zone.min.y, zone.min.z, zone.max.x, zone.max.y, zone.max.z]
    : zone.kind === 'cylinder' ? [zone.center.x, zone.center.y, zone.radiusMm, zone.zMinMm, zone.zMaxMm] : [];
  if (numbers.length === 0) return `kind must be "box" or "cylinder"`;
  if (!numbers.every(Number.isFinite)) return 'every coordinate must be a finite number (mm)';
  if (zone.kind === 'box') {
    if (zone.min.x > zone.max.x || zone.min.y > zone.max.y || zone.min.z > zone.max.z) return 'min must not exceed max on any axis';
  } else {
    if (zone.radiusMm <= 0) return `radiusMm must be above 0, got ${String(zone.radiusMm)}`;
    if (zone.zMinMm > zone.zMaxMm) return 'zMinMm must not exceed zMaxMm';
  }
  return null;
}

/** One line for logs, refusals and the audit: the zone, the person and the speed allowed. */
export function describePresence(status: PresenceStatus): string {
  if (status.person === null) return 'no person seen';
  const at = `(${status.person.x.toFixed(0)}, ${status.person.y.toFixed(0)}, ${status.person.z.toFixed(0)}) mm`;
  const gap = status.separationMm === null ? '' : `, ${status.separationMm.toFixed(0)} mm from the TCP`;
  return `person at ${at}${gap}, ${status.zone} zone, TCP allowed ${status.allowedTcpSpeedMmS.toFixed(1)} mm/s`;
}

/** What the allowed speed depends on besides the sensor: the preset's cap, t_r and a_stop. */
export interface SeparationLimits {
  /** The preset's TCP speed cap, mm/s (the speed allowed when nobody is in a zone). */
  readonly capMmS: number;
  /** Reaction time t_r, s: one control step. */
  readonly reactionS: number;
  /** The preset's stop deceleration a_stop, mm/s². */
  readonly stopDecelerationMmS2: number;
}

/** The TCP speed allowed with the TCP at `tcp`: the cap when clear, 0 in the protective zone. */
function allowedAt(config: PresenceConfig, person: PersonPosition, zone: PresenceZoneState, tcp: Vec3, limits: SeparationLimits): number {
  if (zone === 'clear' || person === null) return limits.capMmS;
  if (zone === 'protective') return 0;
  const separation = Math.hypot(tcp.x - person.x, tcp.y - person.y, tcp.z - person.z);
  return Math.min(config.warningSpeedMmS, limits.capMmS, separationSpeedMmS(separation, limits.reactionS, limits.stopDecelerationMmS2));
}

/** The sensor's report with the TCP at `tcp`. */
export function presenceStatus(config: PresenceConfig, person: PersonPosition, tcp: Vec3, limits: SeparationLimits): PresenceStatus {
  const zone = zoneOf(config, person);
  return {
    zone,
    person,
    config,
    allowedTcpSpeedMmS: allowedAt(config, person, zone, tcp, limits),
    separationMm: person === null ? null : Math.hypot(tcp.x - person.x, tcp.y - person.y, tcp.z - person.z),
    limits,
  };
}

/**
 * The TCP speed a whole path may run at with the person where they are now: the smallest allowed
 * speed over the path's TCP points (the separation shrinks where the path comes closer).
 */
export function pathTcpSpeedCapMmS(status: Pick<PresenceStatus, 'config' | 'person' | 'limits'>, tcpPoints: Iterable<Vec3>): number {
  const { config, person, limits } = status;
  const zone = zoneOf(config, person);
  let cap = limits.capMmS;
  for (const p of tcpPoints) cap = Math.min(cap, allowedAt(config, person, zone, p, limits));
  return cap;
}

/**
 * A presence update from untrusted JSON (the console's `POST /api/presence`, the controller's
 * `set_presence`): `{person?: {x, y, z} | null, config?: {warningZones, protectiveZones, warningSpeedMmS}}` or why not; each zone's own fields are checked by {@link presenceConfigProblem}.
 */
export function presenceUpdateOf(body: unknown): PresenceUpdateInput | string {
  if (typeof body !== 'object' || body === null) return 'the body must be {"person": {"x", "y", "z"} | null, "config": {...}}';
  const { person, config } = body as { person?: unknown; config?: unknown };
  if (person === undefined && config === undefined) return 'give "person", "config" or both';
  const update: { person?: PresenceUpdateInput['person']; config?: PresenceConfig } = {};
  if (person !== undefined) {
    const p = person as { x?: unknown; y?: unknown; z?: unknown } | null;
    if (p !== null && !(typeof p === 'object' && typeof p.x === 'number' && typeof p.y === 'number' && typeof p.z === 'number')) return '"person" must be null or {"x", "y", "z"} in mm';
    update.person = p === null ? null : { x: p.x as number, y: p.y as number, z: p.z as number };
  }
  if (config !== undefined) {
    const c = config as { warningZones?: unknown; protectiveZones?: unknown; warningSpeedMmS?: unknown } | null;
    if (c === null || typeof c !== 'object' || !Array.isArray(c.warningZones) || !Array.isArray(c.protectiveZones) || typeof c.warningSpeedMmS !== 'number') {
      return '"config" must be {"warningZones": [...], "protectiveZones": [...], "warningSpeedMmS": number}';
    }
    // Each zone's own fields are checked by the sensor (`presenceConfigProblem`), which names the bad one.
    update.config = { warningZones: c.warningZones as PresenceZone[], protectiveZones: c.protectiveZones as PresenceZone[], warningSpeedMmS: c.warningSpeedMmS };
  }
  return update;
}
