/** Browser entry of the robot arm tab: live view, approval queue, e-stop, audit tail (bundled at start). */
import { api, connectLive, h } from 'toolwright/console/web';
import type { PendingApproval, ApprovalQueueEvent } from 'toolwright';
import { isPlannedMotion } from '../../view/arm-feed.js';
import type { ArmAuditEntry, ArmFeedEvent, ArmSnapshot, ArmState, AuditVerification, PlannedMotion } from '../../view/arm-feed.js';
import type { AwaitingUserApproval, AwaitingUserEvent } from '../../server/user-approval-board.js';
import { ArmViews } from '../../view/web/arm-views.js';

const app = document.getElementById('app') as HTMLElement;
const views = new ArmViews();
const pending = new Map<string, PendingApproval>();
/** Motions asked of a client's user: shown, declinable, never approvable here. */
const awaitingUser = new Map<string, AwaitingUserApproval>();
const queue = h('ul', { 'data-testid': 'approval-queue', style: 'list-style:none;padding:0' });
const audit = h('ol', { 'data-testid': 'audit-log', style: 'max-height:260px;overflow:auto;font:12px ui-monospace,monospace' });
const verified = h('p', { 'data-testid': 'audit-verified' }, 'chain: not yet verified');
const status = h('p', { 'data-testid': 'arm-status' });
const updates = h('span', { 'data-testid': 'update-count' }, '0');
const message = h('p', { 'data-testid': 'console-message', role: 'status' });
let updateCount = 0;
let selected: string | undefined;

const estop = h('button', { 'data-testid': 'estop', style: 'background:#c62828;color:#fff;font-size:20px;font-weight:700;padding:12px 24px;border-radius:8px' }, 'E-STOP');
const reset = h('button', { 'data-testid': 'estop-reset', disabled: '' }, 'Reset e-stop…');

// The person in the cell: the presence sensor's report, and the operator's setting of the simulated sensor.
const presenceState = h('p', { 'data-testid': 'presence' }, 'presence sensor: none');
const EXAMPLE_ZONES = {
  warningZones: [{ kind: 'cylinder', center: { x: 0, y: 0 }, radiusMm: 1500, zMinMm: 0, zMaxMm: 2000 }],
  protectiveZones: [{ kind: 'cylinder', center: { x: 0, y: 0 }, radiusMm: 900, zMinMm: 0, zMaxMm: 2000 }],
  warningSpeedMmS: 100,
};
const zonesInput = h('textarea', { 'data-testid': 'presence-config', rows: '5', style: 'width:100%;font:11px ui-monospace,monospace' }) as HTMLTextAreaElement;
zonesInput.value = JSON.stringify(EXAMPLE_ZONES);
const personInput = h('input', { 'data-testid': 'presence-person', placeholder: 'x, y, z in mm (empty: nobody)', style: 'width:100%' }) as HTMLInputElement;
const setPresence = h('button', { 'data-testid': 'presence-set' }, 'Set presence');

function showState(state: ArmState): void {
  views.drawState(state);
  const [x, y, z] = state.tcp.map((n) => n.toFixed(0));
  status.textContent = `${state.estop.latched ? `E-STOP LATCHED (${state.estop.reason ?? ''})` : state.moving ? 'moving' : 'idle'} · TCP ${x}, ${y}, ${z} mm · gripper ${state.gripper.widthMm.toFixed(0)} mm${state.gripper.holding !== null ? ` holding ${state.gripper.holding}` : ''}`;
  status.className = state.estop.latched ? 'error' : state.moving ? 'warning' : 'ok';
  status.dataset.estop = String(state.estop.latched);
  status.dataset.moving = String(state.moving);
  reset.disabled = !state.estop.latched && state.fault === null;
  const p = state.presence;
  if (!p.available) {
    presenceState.textContent = 'presence sensor: none on this controller';
    presenceState.dataset.zone = 'none';
  } else {
    const who = p.person === null ? 'nobody seen' : `person at ${p.person.map((n) => n.toFixed(0)).join(', ')} mm`;
    presenceState.textContent = `${p.zone.toUpperCase()}: ${who}; TCP allowed ${p.allowedTcpSpeedMmS.toFixed(0)} mm/s (warning speed ${p.warningSpeedMmS} mm/s)${state.fault !== null ? ` · ${state.fault}` : ''}`;
    presenceState.className = p.zone === 'protective' ? 'error' : p.zone === 'warning' ? 'warning' : 'ok';
    presenceState.dataset.zone = p.zone;
  }
}

function showVerification(v: AuditVerification): void {
  verified.textContent = `chain ${v.ok ? 'verified' : 'BROKEN'}: ${v.message}`;
  verified.className = v.ok ? 'ok' : 'error';
  verified.dataset.ok = String(v.ok);
}

function addAudit(entry: ArmAuditEntry): void {
  audit.prepend(h('li', {}, `#${entry.seq} ${entry.time.slice(11, 23)} ${entry.kind}: ${entry.summary} `, h('span', { class: 'muted' }, entry.hash.slice(0, 12))));
  while (audit.children.length > 200) audit.lastElementChild?.remove();
}

/** The figures beside a plan; a release says what falls how far (its path is the fall). */
function planFacts(plan: PlannedMotion | undefined): string {
  if (plan === undefined) return '';
  if (plan.release !== undefined) return `release: ${plan.release.objectId} falls ${plan.release.dropMm.toFixed(1)} mm in ${plan.durationS.toFixed(2)} s (arm still) · `;
  return `${plan.durationS.toFixed(2)} s · peak ${plan.peakSpeedMmS.toFixed(0)} mm/s · grip ${plan.gripForceN === null ? 'none' : `${plan.gripForceN} N`} · `;
}

function renderQueue(): void {
  queue.replaceChildren();
  if (pending.size === 0 && awaitingUser.size === 0) queue.append(h('li', { class: 'muted' }, 'no motion is waiting for approval'));
  if (selected !== undefined && !pending.has(selected)) selected = undefined;
  selected ??= pending.keys().next().value;
  for (const item of pending.values()) {
    const plan = isPlannedMotion(item.details) ? item.details : undefined;
    const approve = h('button', { class: 'primary', 'data-testid': 'approve' }, 'Approve');
    const decline = h('button', { 'data-testid': 'decline' }, 'Decline');
    const decide = (yes: boolean): void => {
      approve.disabled = decline.disabled = true;
      api<{ decided: string }>('/api/approvals/decide', { id: item.id, approve: yes, digest: item.digest }).then(
        (r) => (message.textContent = `${r.decided}: ${item.summary}`),
        (e: Error) => {
          message.textContent = `not decided: ${e.message}`;
          approve.disabled = decline.disabled = false;
        },
      );
    };
    approve.addEventListener('click', () => decide(true));
    decline.addEventListener('click', () => decide(false));
    const facts = planFacts(plan);
    const li = h('li', { 'data-testid': `approval-${item.id}`, style: `padding:6px;border:1px solid var(--line);border-radius:4px;margin:4px 0${item.id === selected ? ';outline:2px solid #e67e22' : ''}` },
      h('strong', {}, item.summary), h('br'), h('span', { class: 'muted' }, `${facts}plan ${item.digest.slice(0, 16)}… · ${Math.max(0, Math.round((item.deadline - Date.now()) / 1000))} s left`), h('br'), approve, ' ', decline);
    li.addEventListener('mouseenter', () => {
      selected = item.id;
      views.setPlanned(plan?.path);
    });
    queue.append(li);
  }
  for (const item of awaitingUser.values()) {
    const plan = isPlannedMotion(item.details) ? item.details : undefined;
    const decline = h('button', { 'data-testid': 'decline-user' }, 'Decline');
    decline.addEventListener('click', () => {
      decline.disabled = true;
      api<{ declined: string }>('/api/approvals/decline-user', { id: item.id }).then(
        () => (message.textContent = `declined for the client's user: ${item.summary}`),
        (e: Error) => {
          message.textContent = `not declined: ${e.message}`;
          decline.disabled = false;
        },
      );
    });
    const facts = planFacts(plan);
    const li = h('li', { 'data-testid': `awaiting-user-${item.id}`, style: 'padding:6px;border:1px dashed var(--line);border-radius:4px;margin:4px 0' },
      h('strong', {}, item.summary), h('br'), h('em', { 'data-testid': 'awaiting-user' }, 'awaiting the client\'s user (approval is theirs; you can decline or e-stop)'), h('br'),
      h('span', { class: 'muted' }, `${facts}plan ${item.planHash.slice(0, 16)}…`), h('br'), decline);
    li.addEventListener('mouseenter', () => views.setPlanned(plan?.path));
    queue.append(li);
  }
  const current = selected === undefined ? undefined : pending.get(selected);
  const firstAwaiting = awaitingUser.values().next().value;
  const drawn = isPlannedMotion(current?.details) ? current.details : isPlannedMotion(firstAwaiting?.details) ? firstAwaiting.details : undefined;
  views.setPlanned(drawn?.path);
}

estop.addEventListener('click', () => {
  api('/api/estop', { reason: 'e-stop pressed in the console' }).then(() => (message.textContent = 'e-stop latched'), (e: Error) => (message.textContent = `e-stop request failed: ${e.message}`));
});
reset.addEventListener('click', () => {
  if (!window.confirm('Reset the emergency stop? Make sure the cell is clear.')) return;
  api('/api/estop/reset', { confirm: true }).then(() => (message.textContent = 'e-stop reset'), (e: Error) => (message.textContent = `not reset: ${e.message}`));
});

setPresence.addEventListener('click', () => {
  let config: unknown;
  try {
    config = JSON.parse(zonesInput.value);
  } catch {
    message.textContent = 'the zones are not valid JSON';
    return;
  }
  const parts = personInput.value.trim() === '' ? [] : personInput.value.split(',').map((v) => Number(v.trim()));
  if (parts.length !== 0 && (parts.length !== 3 || !parts.every(Number.isFinite))) {
    message.textContent = 'the person is "x, y, z" in mm, or empty for nobody';
    return;
  }
  const person = parts.length === 0 ? null : { x: parts[0], y: parts[1], z: parts[2] };
  api<{ zone: string; allowedTcpSpeedMmS: number }>('/api/presence', { config, person }).then(
    (r) => (message.textContent = `presence set: ${r.zone}, TCP allowed ${r.allowedTcpSpeedMmS.toFixed(0)} mm/s`),
    (e: Error) => (message.textContent = `presence not set: ${e.message}`),
  );
});

function applySnapshot(snapshot: ArmSnapshot): void {
  views.drawStatics(snapshot.envelope, snapshot.objects);
  views.setTrace(snapshot.trace);
  showState(snapshot.state);
  audit.replaceChildren();
  for (const entry of snapshot.audit) addAudit(entry);
  showVerification(snapshot.verification);
}

app.replaceChildren(
  h('div', { class: 'row' },
    h('section', { class: 'grow' }, h('h2', {}, 'Arm (top and side views)'), views.element, status, h('p', { class: 'muted' }, 'updates received: ', updates, ' · dashed orange: planned path of the selected pending motion · blue: executed trace')),
    h('div', { style: 'flex:0 1 380px' },
      h('section', {}, estop, ' ', reset, message),
      h('section', {}, h('h2', {}, 'Person in the cell'), presenceState, h('label', {}, 'zones (base frame, mm)', zonesInput), h('label', {}, 'person', personInput), setPresence),
      h('section', {}, h('h2', {}, 'Waiting for approval'), queue),
      h('section', {}, h('h2', {}, 'Audit log'), verified, audit))),
);
renderQueue();

connectLive({
  snapshot: (data) => {
    applySnapshot(data as ArmSnapshot);
    document.body.dataset.ready = 'true';
  },
  approvals: (data) => {
    pending.clear();
    for (const item of data as PendingApproval[]) pending.set(item.id, item);
    renderQueue();
  },
  approval: (data) => {
    const event = data as ApprovalQueueEvent;
    if (event.type === 'pending') pending.set(event.pending.id, event.pending);
    else pending.delete(event.pending.id);
    renderQueue();
  },
  'awaiting-users': (data) => {
    awaitingUser.clear();
    for (const item of data as AwaitingUserApproval[]) awaitingUser.set(item.id, item);
    renderQueue();
  },
  'awaiting-user': (data) => {
    const event = data as AwaitingUserEvent;
    if (event.type === 'awaiting') awaitingUser.set(event.entry.id, event.entry);
    else awaitingUser.delete(event.entry.id);
    renderQueue();
  },
  state: (data) => {
    const state = data as ArmState;
    updates.textContent = String(++updateCount);
    showState(state);
    if (state.moving) views.extendTrace(state.tcp);
  },
  'trace-reset': () => views.setTrace([]),
  objects: (data) => {
    const snapshot = (data as Extract<ArmFeedEvent, { type: 'objects' }>).objects;
    void api<ArmSnapshot>('/api/arm').then((s) => views.drawStatics(s.envelope, snapshot));
  },
  audit: (data) => {
    const event = data as Extract<ArmFeedEvent, { type: 'audit' }>;
    addAudit(event.entry);
    showVerification(event.verification);
  },
});
