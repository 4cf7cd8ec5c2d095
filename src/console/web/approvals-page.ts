/**
 * Browser entry of the approvals tab (bundled by static-assets.ts): the calls a server holds for an
 * operator (`ctx.approvals.awaitOperator`, or the hook's `approver: 'operator'`), live, each with
 * what it would do, who asked, the digest the decision is bound to and the time left; approve or
 * decline, and the calls decided since the page opened.
 */
import type { ApprovalQueueEvent, PendingApproval } from '../../server/approvals/operator-approvals.js';
import { api, connectLive, h, jsonBlock } from './console-client.js';

const pending = new Map<string, PendingApproval>();
const queue = h('ul', { 'data-testid': 'approval-queue', style: 'list-style:none;padding:0' });
const decided = h('ul', { 'data-testid': 'approval-decided' });
const app = document.getElementById('app') as HTMLElement;
/** Server clock minus this page's clock, from the last call that started waiting. */
let skewMs = 0;
/** Calls whose decision is on its way: their buttons stay off when the list is drawn again. */
const deciding = new Set<string>();
/** The error of a decision that failed, shown on its row until the call is settled. */
const failures = new Map<string, string>();

function timeLeft(item: PendingApproval): string {
  const seconds = Math.max(0, Math.round((item.deadline - (Date.now() + skewMs)) / 1000));
  return `${seconds} s left`;
}

function decide(item: PendingApproval, approve: boolean): void {
  deciding.add(item.id);
  failures.delete(item.id);
  render();
  api<{ decided: string }>('/api/approvals/decide', { id: item.id, approve, digest: item.digest }).catch((error: Error) => {
    // Already decided elsewhere, timed out, or the call now differs from what was shown: say so.
    failures.set(item.id, error.message);
  }).finally(() => {
    deciding.delete(item.id);
    render();
  });
}

function render(): void {
  queue.replaceChildren();
  if (pending.size === 0) queue.append(h('li', { class: 'muted', 'data-testid': 'approval-empty' }, 'no call is waiting for an operator'));
  for (const item of pending.values()) {
    const approve = h('button', { class: 'primary', 'data-testid': 'approve' }, 'Approve');
    const decline = h('button', { 'data-testid': 'decline' }, 'Decline');
    approve.disabled = decline.disabled = deciding.has(item.id);
    const failure = failures.get(item.id);
    const row = h('li', { 'data-testid': `approval-${item.id}`, style: 'padding:6px;border:1px solid var(--line);border-radius:4px;margin:4px 0' },
      h('strong', { 'data-testid': 'approval-summary' }, item.summary), h('br'),
      h('span', { class: 'muted' }, `${item.call} · asked by ${item.subject === '' ? 'an anonymous client' : item.subject}${item.client === undefined ? '' : ` (${item.client.name}${item.client.version === '' ? '' : ` ${item.client.version}`})`} · `, h('span', { 'data-testid': 'time-left', 'data-deadline': String(item.deadline) }, timeLeft(item))), h('br'),
      h('span', { class: 'muted', 'data-testid': 'approval-digest' }, `digest ${item.digest}`),
      item.details === undefined ? '' : jsonBlock(item.details, 'approval-details'),
      h('div', {}, approve, ' ', decline),
      failure === undefined ? '' : h('p', { class: 'error', 'data-testid': 'decide-failure' }, failure));
    approve.addEventListener('click', () => decide(item, true));
    decline.addEventListener('click', () => decide(item, false));
    queue.append(row);
  }
}

function settled(event: Extract<ApprovalQueueEvent, { type: 'settled' }>): void {
  pending.delete(event.pending.id);
  failures.delete(event.pending.id);
  const { outcome } = event;
  const who = outcome.by === undefined ? '' : ` by ${outcome.by.operator}`;
  const what = outcome.approved ? 'approved' : outcome.reason;
  decided.prepend(h('li', { class: outcome.approved ? 'ok' : 'warning', 'data-testid': `decided-${event.pending.id}` }, `${new Date().toISOString().slice(11, 19)} ${event.pending.tool}: ${what}${who} (${event.pending.summary})`));
  while (decided.children.length > 50) decided.lastElementChild?.remove();
  render();
}

app.replaceChildren(
  h('section', {}, h('h2', {}, 'Waiting for an operator'), queue),
  h('section', {}, h('h2', {}, 'Decided since this page opened'), decided),
);
render();
connectLive({
  approvals: (data) => {
    pending.clear();
    for (const item of data as PendingApproval[]) pending.set(item.id, item);
    render();
    document.body.dataset.ready = 'true';
  },
  approval: (data) => {
    const event = data as ApprovalQueueEvent;
    if (event.type === 'pending') {
      skewMs = event.pending.requestedAt - Date.now();
      pending.set(event.pending.id, event.pending);
      render();
    } else settled(event);
  },
});
setInterval(() => {
  queue.querySelectorAll<HTMLElement>('[data-testid=time-left]').forEach((span) => {
    const item = pending.get(span.closest('li')?.dataset.testid?.slice('approval-'.length) ?? '');
    if (item !== undefined) span.textContent = timeLeft(item);
  });
}, 1000);
