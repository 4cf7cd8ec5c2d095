/**
 * The unit readings of `quality/numeric-unit` and `quality/numeric-examples` (one place: src/lint/text-signals.ts): a corpus of descriptions with
 * and without a unit, including the false readings issue 33 item 7 reported ("second" as an ordinal, the article
 * "a" read as amperes), and the rule's verdict on a tool that states none.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lintTools } from '../../src/lint/index.js';
import { physicalUnitIn, UNIT_OR_RANGE } from '../../src/lint/text-signals.js';

const STATES_A_UNIT = [
  'Timeout in seconds.', 'Wait 5 second.', 'Samples per second.', 'Rate per minute.', 'Force in N.', 'Force in newtons.',
  'Current (A).', 'Length in m.', 'Mass in g.', 'Delay in ms.', 'Width in pixels.', 'Limit: 5 A.', 'Speed in mm/s.',
  'Angle in degrees.', 'Between 0 and 10.', 'At most 3.', 'Scale factor.', 'Pressure in bar.', '力，单位牛。',
];
const STATES_NONE = [
  'The second operand.', 'Pick a value for the gripper.', 'Index stored in a list.', 'Speed of the arm.',
  'Tell us the count.', 'A bar chart height.', 'The minute hand angle.', 'The first value.', 'Weight of an item.',
];

it('each description of the corpus is read as stating a unit exactly when it does', () => {
  for (const text of STATES_A_UNIT) assert.equal(UNIT_OR_RANGE.test(text), true, text);
  for (const text of STATES_NONE) assert.equal(UNIT_OR_RANGE.test(text), false, text);
});

it('quality/numeric-unit warns about "the second operand" and accepts "in seconds"', () => {
  const tool = (description: string) => ({
    name: 'add_numbers',
    description: 'Adds two numbers and returns their sum. Use for exact arithmetic on two values.',
    inputSchema: { type: 'object', properties: { b: { type: 'number', description } }, required: ['b'] },
  });
  const findings = (description: string) => lintTools([tool(description)]).findings.filter((f) => f.ruleId === 'quality/numeric-unit').map((f) => f.message);
  assert.deepEqual(findings('The second operand.'), ['numeric parameter "b" states no unit and no range']);
  assert.deepEqual(findings('How long to wait, in seconds.'), []);
});

/** Each text and the physical unit quality/numeric-examples reads in it (undefined: none). */
const PHYSICAL_UNITS: ReadonlyArray<[string, string | undefined]> = [
  ['The second operand, subtracted from the first.', undefined], ['A minute change in the angle.', undefined], ['A bar chart height.', undefined],
  ['The hour hand position.', undefined], ['The first value.', undefined], ['Samples per second.', 'second'], ['Wait 5 second.', 'second'],
  ['Timeout in seconds.', 'seconds'], ['Pressure in bar.', 'bar'], ['Grip force in newtons, 5 to 30.', 'newtons'], ['Offset (mm).', 'mm'],
  ['Roll, 90°.', '°'], ['Delay in minutes.', 'minutes'], ['力，单位牛。', '牛'],
];

it('quality/numeric-examples reads a physical unit exactly when the text states one (an ordinal is not a unit)', () => {
  for (const [text, unit] of PHYSICAL_UNITS) assert.equal(physicalUnitIn(text), unit, text);
});

it('quality/numeric-examples says nothing about "the second operand" and still asks for examples of "in seconds"', () => {
  const tool = (description: string) => ({
    name: 'subtract_numbers',
    description: 'Subtracts the second number from the first and returns the difference. Use for exact arithmetic.',
    inputSchema: { type: 'object', properties: { b: { type: 'number', description } }, required: ['b'] },
  });
  const findings = (description: string) => lintTools([tool(description)]).findings.filter((f) => f.ruleId === 'quality/numeric-examples').map((f) => f.message);
  assert.deepEqual(findings('The second operand, subtracted from the first.'), []);
  assert.deepEqual(findings('How long to wait, in seconds.'), ['numeric parameter "b" is in seconds but gives no example value: models then send the number with its unit ("10 seconds" instead of 10) or guess its scale']);
});
