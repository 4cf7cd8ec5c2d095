/**
 * Top (x-y) and side (x-z) SVG views of the arm: envelope, table, objects, links, gripper, TCP,
 * the planned path of the selected pending motion (dashed) and the executed trace. The static
 * layers are drawn once per snapshot; a state update only moves the arm and extends the trace.
 */
import type { ArmEnvelope, ArmObject, ArmState, Point } from '../arm-feed.js';

const NS = 'http://www.w3.org/2000/svg';
type Axis = 0 | 1 | 2;

function el(tag: string, attributes: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
  return node;
}

const LABEL_SIZE = 40;
/** A placed label's box in view units (x centred, baseline at y). */
interface LabelBox { left: number; right: number; top: number; bottom: number }

/**
 * The baseline of a label centred at `x`, at `y` or above it, clear of the labels placed before:
 * objects side by side along the axis a view does not show (the side view's y) would otherwise have
 * their labels drawn on top of each other. The box is estimated from the text length (no layout read).
 */
function labelY(placed: LabelBox[], x: number, y: number, text: string): number {
  const half = (text.length * LABEL_SIZE * 0.62) / 2;
  let baseline = y;
  for (let tries = 0; tries < 50; tries++) {
    const box = { left: x - half, right: x + half, top: baseline - LABEL_SIZE, bottom: baseline + LABEL_SIZE * 0.3 };
    const hit = placed.find((p) => box.left < p.right && p.left < box.right && box.top < p.bottom && p.top < box.bottom);
    if (hit === undefined) {
      placed.push(box);
      return baseline;
    }
    baseline = hit.top - LABEL_SIZE * 0.3 - 1;
  }
  return baseline;
}

/** One projection: horizontal axis `u`, vertical axis `v` (drawn upwards). */
class View {
  readonly svg: SVGSVGElement;
  readonly #statics: SVGGElement;
  readonly #planned: SVGPolylineElement;
  readonly #trace: SVGPolylineElement;
  readonly #links: SVGPolylineElement;
  readonly #joints: SVGGElement;
  readonly #tcp: SVGCircleElement;
  readonly #gripper: SVGLineElement;
  #tracePoints: string[] = [];

  constructor(readonly name: string, readonly u: Axis, readonly v: Axis) {
    this.svg = el('svg', { 'data-testid': `arm-view-${name}`, role: 'img', 'aria-label': `${name} view`, width: 360, height: 360 }) as SVGSVGElement;
    this.#statics = el('g', {}) as SVGGElement;
    this.#planned = el('polyline', { fill: 'none', stroke: '#e67e22', 'stroke-width': 6, 'stroke-dasharray': '18 10', 'data-testid': `planned-path-${name}` }) as SVGPolylineElement;
    this.#trace = el('polyline', { fill: 'none', stroke: '#2e86de', 'stroke-width': 5, 'data-testid': `trace-${name}` }) as SVGPolylineElement;
    this.#links = el('polyline', { fill: 'none', stroke: 'currentColor', 'stroke-width': 22, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', opacity: 0.8 }) as SVGPolylineElement;
    this.#joints = el('g', {}) as SVGGElement;
    this.#tcp = el('circle', { r: 14, fill: '#c0392b', 'data-testid': `tcp-${name}` }) as SVGCircleElement;
    this.#gripper = el('line', { stroke: '#8e44ad', 'stroke-width': 10 }) as SVGLineElement;
    this.svg.append(this.#statics, this.#planned, this.#trace, this.#links, this.#joints, this.#gripper, this.#tcp);
  }

  /** Screen coordinates of a base-frame point (SVG y grows downwards). */
  xy(p: Point): [number, number] {
    return [p[this.u], -p[this.v]];
  }

  pts(points: readonly Point[]): string {
    return points.map((p) => this.xy(p).map((n) => n.toFixed(1)).join(',')).join(' ');
  }

  drawStatics(envelope: ArmEnvelope, objects: readonly ArmObject[]): void {
    const r = envelope.reachRadiusMm;
    const [cx, cy] = this.xy(envelope.reachCenter);
    const pad = 80;
    const top = this.v === 2 ? Math.min(cy - r, -r) - pad : cy - r - pad;
    const bottom = this.v === 2 ? -envelope.tableZMm + 200 : cy + r + pad;
    this.svg.setAttribute('viewBox', `${(cx - r - pad).toFixed(0)} ${top.toFixed(0)} ${(2 * (r + pad)).toFixed(0)} ${(bottom - top).toFixed(0)}`);
    const layers: SVGElement[] = [el('circle', { cx, cy, r, fill: 'none', stroke: '#27ae60', 'stroke-width': 4, 'stroke-dasharray': '12 8', 'data-testid': `envelope-${this.name}` })];
    if (this.v === 2) {
      layers.push(el('line', { x1: cx - r - pad, x2: cx + r + pad, y1: -envelope.tableZMm, y2: -envelope.tableZMm, stroke: '#7f8c8d', 'stroke-width': 8 }));
      layers.push(el('rect', { x: -envelope.keepOutRadiusMm, y: top, width: 2 * envelope.keepOutRadiusMm, height: -envelope.tableZMm - top, fill: '#c0392b', opacity: 0.12 }));
    } else {
      layers.push(el('circle', { cx: 0, cy: 0, r: envelope.keepOutRadiusMm, fill: '#c0392b', opacity: 0.15 }));
    }
    const placed: LabelBox[] = [];
    for (const o of objects) {
      const [w, d, hgt] = o.sizeMm;
      const [ox, oy] = this.xy(o.position);
      const width = o.shape === 'box' ? (this.u === 0 ? w : d) : w;
      const height = this.v === 2 ? (o.shape === 'sphere' ? w : hgt) : o.shape === 'box' ? d : w;
      const shape = o.shape === 'box' || this.v === 2
        ? el('rect', { x: ox - width / 2, y: oy - height / 2, width, height, fill: o.held ? '#8e44ad' : '#f1c40f', opacity: 0.7, transform: this.v === 2 || o.shape !== 'box' ? '' : `rotate(${-o.yawDeg} ${ox} ${oy})` })
        : el('circle', { cx: ox, cy: oy, r: width / 2, fill: o.held ? '#8e44ad' : '#f1c40f', opacity: 0.7 });
      shape.setAttribute('data-object', o.id);
      const label = el('text', { x: ox, y: labelY(placed, ox, oy - height / 2 - 10, o.label), 'font-size': LABEL_SIZE, 'text-anchor': 'middle', fill: 'currentColor', 'data-label-of': o.id });
      label.textContent = o.label;
      layers.push(shape, label);
    }
    this.#statics.replaceChildren(...layers);
  }

  drawState(state: ArmState): void {
    this.#links.setAttribute('points', this.pts(state.joints));
    this.#joints.replaceChildren(...state.joints.map((j) => {
      const [x, y] = this.xy(j);
      return el('circle', { cx: x, cy: y, r: 12, fill: 'var(--card)', stroke: 'currentColor', 'stroke-width': 4 });
    }));
    const [tx, ty] = this.xy(state.tcp);
    this.#tcp.setAttribute('cx', tx.toFixed(1));
    this.#tcp.setAttribute('cy', ty.toFixed(1));
    const half = state.gripper.widthMm / 2;
    // Jaws drawn across the horizontal axis at the TCP: their opening is readable in both views.
    this.#gripper.setAttribute('x1', (tx - half).toFixed(1));
    this.#gripper.setAttribute('x2', (tx + half).toFixed(1));
    this.#gripper.setAttribute('y1', (ty + 20).toFixed(1));
    this.#gripper.setAttribute('y2', (ty + 20).toFixed(1));
  }

  setTrace(points: readonly Point[]): void {
    this.#tracePoints = points.map((p) => this.pts([p]));
    this.#trace.setAttribute('points', this.#tracePoints.join(' '));
  }

  extendTrace(point: Point): void {
    this.#tracePoints.push(this.pts([point]));
    if (this.#tracePoints.length > 2000) this.#tracePoints.shift();
    this.#trace.setAttribute('points', this.#tracePoints.join(' '));
  }

  setPlanned(points: readonly Point[] | undefined): void {
    this.#planned.setAttribute('points', points === undefined ? '' : this.pts(points));
  }
}

/** The two views side by side. */
export class ArmViews {
  readonly element: HTMLElement;
  readonly #views = [new View('top', 0, 1), new View('side', 0, 2)];

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'row';
    this.element.setAttribute('data-testid', 'arm-view');
    for (const view of this.#views) this.element.append(view.svg);
  }

  drawStatics(envelope: ArmEnvelope, objects: readonly ArmObject[]): void {
    for (const v of this.#views) v.drawStatics(envelope, objects);
  }

  drawState(state: ArmState): void {
    for (const v of this.#views) v.drawState(state);
  }

  setTrace(points: readonly Point[]): void {
    for (const v of this.#views) v.setTrace(points);
  }

  extendTrace(point: Point): void {
    for (const v of this.#views) v.extendTrace(point);
  }

  setPlanned(points: readonly Point[] | undefined): void {
    for (const v of this.#views) v.setPlanned(points);
  }
}
