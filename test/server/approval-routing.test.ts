// THE approval routing and form (src/server/approvals.ts): who approves a call, whether a client can
// show the form, the form itself and how its answer reads. The robot arm's approval gate routes with
// these too (packages/robot-arm/server/approval-gate.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { approvalAnswer, approvalForm, canElicitForm, routeApproval, type ApprovalRoute, type ApproverChoice, type ClientCapabilities } from 'toolwright';

describe('canElicitForm', () => {
  it('is true for an empty elicitation capability or one naming form, false for URL only or none', () => {
    assert.equal(canElicitForm({ elicitation: {} }), true);
    assert.equal(canElicitForm({ elicitation: { form: {} } }), true);
    assert.equal(canElicitForm({ elicitation: { form: {}, url: {} } }), true);
    assert.equal(canElicitForm({ elicitation: { url: {} } }), false);
    assert.equal(canElicitForm({}), false);
    assert.equal(canElicitForm(JSON.parse('{"elicitation": []}') as ClientCapabilities), false);
  });
});

describe('routeApproval', () => {
  const route = (approver: ApproverChoice, callerMayApprove: boolean, formElicitation: boolean, more: { answering?: boolean; operatorPresent?: boolean } = {}): ApprovalRoute =>
    routeApproval({ approver, callerMayApprove, formElicitation, ...more });
  const ELICITATION = { to: 'elicitation' };
  const OPERATOR = { to: 'operator' };
  const NO_SCOPE = { to: 'refused', reason: 'approver-scope' };
  const NO_FORM = { to: 'refused', reason: 'form-elicitation' };

  it('operator: always the operator, whoever calls', () => {
    for (const trusted of [true, false]) for (const form of [true, false]) assert.deepEqual(route('operator', trusted, form), OPERATOR);
  });

  it('elicitation: the trusted caller that can show a form; any other is refused with the reason', () => {
    assert.deepEqual(route('elicitation', true, true), ELICITATION);
    assert.deepEqual(route('elicitation', false, true), NO_SCOPE);
    assert.deepEqual(route('elicitation', false, false), NO_SCOPE);
    assert.deepEqual(route('elicitation', true, false), NO_FORM);
  });

  it('either: the operator for an untrusted caller or one without a form, unless it is answering a question already', () => {
    assert.deepEqual(route('either', true, true), ELICITATION);
    assert.deepEqual(route('either', false, true), OPERATOR);
    assert.deepEqual(route('either', true, false), OPERATOR);
    assert.deepEqual(route('either', true, false, { answering: true }), NO_FORM);
    assert.deepEqual(route('either', false, true, { answering: true }), OPERATOR);
  });

  it('either with no operator present: routed as elicitation, refused at once instead of waiting for nobody', () => {
    assert.deepEqual(route('either', true, true, { operatorPresent: false }), ELICITATION);
    assert.deepEqual(route('either', false, true, { operatorPresent: false }), NO_SCOPE);
    assert.deepEqual(route('either', true, false, { operatorPresent: false }), NO_FORM);
    assert.deepEqual(route('operator', false, false, { operatorPresent: false }), OPERATOR, 'operator waits for one to come');
  });

  it('refuses an approver it does not know', () => {
    assert.throws(() => routeApproval({ approver: 'console' as ApproverChoice, callerMayApprove: true, formElicitation: true }), {
      name: 'TypeError',
      message: 'approver must be "elicitation", "operator" or "either", got "console"',
    });
  });
});

describe('approvalForm and approvalAnswer', () => {
  it('the form is one required boolean under the message, with default or given words', () => {
    assert.deepEqual(approvalForm('Wipe the cache?'), {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Wipe the cache?',
        requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve', description: 'Allow this call to run as described above' } }, required: ['approve'] },
      },
    });
    const worded = approvalForm('Move?', { title: 'Approve this motion', description: 'Tick to run the plan' });
    assert.deepEqual(worded.params.requestedSchema, { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve this motion', description: 'Tick to run the plan' } }, required: ['approve'] });
  });

  it('an empty message is refused', () => {
    assert.throws(() => approvalForm(''), { name: 'TypeError', message: 'approvalForm() needs a non-empty message' });
  });

  it('only an accepted form with approve: true approves', () => {
    assert.equal(approvalAnswer({ action: 'accept', content: { approve: true } }), 'approved');
    assert.equal(approvalAnswer({ action: 'accept', content: { approve: false } }), 'not-approved');
    assert.equal(approvalAnswer({ action: 'accept', content: { approve: 'true' } }), 'not-approved');
    assert.equal(approvalAnswer({ action: 'accept' }), 'not-approved');
    assert.equal(approvalAnswer({ action: 'decline', content: { approve: true } }), 'declined');
    assert.equal(approvalAnswer({ action: 'cancel' }), 'cancelled');
  });
});
