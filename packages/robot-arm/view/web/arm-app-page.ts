/**
 * Browser entry of the arm view as an MCP App (inlined into ui://toolwright-robot-arm/arm-view.html).
 * It speaks the ext-apps protocol to its host through `App` (postMessage to the parent frame), reads
 * `robot-arm://view/state` through the host's resources/read proxy (10/s while the arm moves, 1/s
 * at rest, at once after each tool result) and draws it with the console's SVG views.
 * View only: no control of any kind is rendered here.
 */
import { App } from '@modelcontextprotocol/ext-apps';
import type { ArmAppState } from '../arm-app.js';
import type { ArmState, Point } from '../arm-feed.js';
import { ArmViews } from './arm-views.js';

const STATE_URI = 'robot-arm://view/state';
const MOVING_PERIOD_MS = 100;
const IDLE_PERIOD_MS = 1000;

const root = document.getElementById('app') as HTMLElement;
const views = new ArmViews();
const status = document.createElement('p');
status.setAttribute('data-testid', 'arm-status');
const updates = document.createElement('span');
updates.setAttribute('data-testid', 'update-count');
updates.textContent = '0';
const note = document.createElement('p');
note.className = 'muted';
note.append('View only: approve, decline and e-stop at the operator console. Updates: ', updates);
root.replaceChildren(views.element, status, note);

let updateCount = 0;
let staticsKey = '';
let trace: Point[] = [];
let wasMoving = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let stopped = false;

function showState(state: ArmState): void {
  views.drawState(state);
  const [x, y, z] = state.tcp.map((n) => n.toFixed(0));
  status.textContent = `${state.estop.latched ? `E-STOP LATCHED (${state.estop.reason ?? ''})` : state.moving ? 'moving' : 'idle'} · TCP ${x}, ${y}, ${z} mm · gripper ${state.gripper.widthMm.toFixed(0)} mm${state.gripper.holding !== null ? ` holding ${state.gripper.holding}` : ''}`;
  status.className = state.estop.latched ? 'error' : state.moving ? 'warning' : 'ok';
  status.dataset.moving = String(state.moving);
  status.dataset.estop = String(state.estop.latched);
}

function draw(view: ArmAppState): void {
  const key = JSON.stringify([view.envelope, view.objects]);
  if (key !== staticsKey) {
    staticsKey = key;
    views.drawStatics(view.envelope, view.objects);
  }
  if (view.state.moving && !wasMoving) trace = [];
  if (view.state.moving) trace.push(view.state.tcp);
  wasMoving = view.state.moving;
  views.setTrace(trace);
  views.setPlanned(view.planned ?? undefined);
  showState(view.state);
  updates.textContent = String(++updateCount);
  document.body.dataset.ready = 'true';
}

const app = new App({ name: 'toolwright-robot-arm-view', version: '0.1.0' }, {});

async function refresh(): Promise<void> {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (stopped) return;
  try {
    const read = await app.readServerResource({ uri: STATE_URI });
    const first = read.contents[0];
    if (first !== undefined && 'text' in first && typeof first.text === 'string') draw(JSON.parse(first.text) as ArmAppState);
  } catch (error) {
    status.textContent = `arm state not readable through the host: ${error instanceof Error ? error.message : String(error)}`;
    status.className = 'error';
  }
  if (!stopped) timer = setTimeout(() => void refresh(), wasMoving ? MOVING_PERIOD_MS : IDLE_PERIOD_MS);
}

app.ontoolresult = () => void refresh();
app.onteardown = () => {
  stopped = true;
  if (timer !== undefined) clearTimeout(timer);
  return {};
};

app.connect().then(
  () => {
    if (app.getHostCapabilities()?.serverResources === undefined) {
      status.textContent = 'This host does not proxy resources/read to the server, so the arm view cannot be drawn here; use the operator console.';
      status.className = 'error';
      return;
    }
    void refresh();
  },
  (error: unknown) => {
    status.textContent = `could not connect to the host: ${error instanceof Error ? error.message : String(error)}`;
    status.className = 'error';
  },
);
