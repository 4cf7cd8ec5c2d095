/**
 * A form generated from a tool's inputSchema. Scalars get inputs (enum → select, boolean →
 * checkbox, number/integer → number input), nested objects get fieldsets, anything else (arrays,
 * combinators, refs) a JSON text field. The form writes into an arguments object that the caller
 * shows as editable JSON, so deliberately bad input can still be sent.
 */
import { h } from './console-client.js';

type Schema = Record<string, unknown>;

/** Builds the form; `onChange` gets the arguments after every edit. */
export function schemaForm(schema: Schema, onChange: (args: Record<string, unknown>) => void): HTMLElement {
  const args: Record<string, unknown> = {};
  const root = objectFields(schema, args, () => onChange(args), '');
  return h('div', { 'data-testid': 'schema-form' }, root);
}

function objectFields(schema: Schema, target: Record<string, unknown>, changed: () => void, path: string): HTMLElement {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const box = h('div');
  for (const [name, property] of Object.entries(properties)) {
    const id = `arg-${path}${name}`;
    const label = h('label', { for: id }, `${name}${required.has(name) ? ' *' : ''}`);
    const hint = typeof property.description === 'string' ? h('span', { class: 'muted' }, ` ${property.description}`) : '';
    const row = h('div', { style: 'margin:4px 0' }, label, ' ', fieldFor(property, id, name, target, changed, `${path}${name}.`), hint);
    box.append(row);
  }
  return box;
}

function fieldFor(schema: Schema, id: string, name: string, target: Record<string, unknown>, changed: () => void, path: string): HTMLElement {
  const set = (value: unknown): void => {
    if (value === undefined) delete target[name];
    else target[name] = value;
    changed();
  };
  if (Array.isArray(schema.enum)) {
    const select = h('select', { id, 'data-testid': id }, h('option', { value: '' }, '(unset)'));
    schema.enum.forEach((value, i) => select.append(h('option', { value: String(i) }, JSON.stringify(value))));
    select.addEventListener('change', () => set(select.value === '' ? undefined : (schema.enum as unknown[])[Number(select.value)]));
    return select;
  }
  if (schema.type === 'boolean') {
    const box = h('select', { id, 'data-testid': id }, h('option', { value: '' }, '(unset)'), h('option', { value: 'true' }, 'true'), h('option', { value: 'false' }, 'false'));
    box.addEventListener('change', () => set(box.value === '' ? undefined : box.value === 'true'));
    return box;
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    const input = h('input', { id, 'data-testid': id, type: 'number', step: schema.type === 'integer' ? '1' : 'any' });
    if (typeof schema.minimum === 'number') input.min = String(schema.minimum);
    if (typeof schema.maximum === 'number') input.max = String(schema.maximum);
    input.addEventListener('input', () => set(input.value === '' ? undefined : Number(input.value)));
    return input;
  }
  if (schema.type === 'string') {
    const input = h('input', { id, 'data-testid': id, type: 'text' });
    input.addEventListener('input', () => set(input.value === '' ? undefined : input.value));
    return input;
  }
  if (schema.type === 'object' && schema.properties !== undefined) {
    const nested: Record<string, unknown> = {};
    return h('fieldset', {}, objectFields(schema, nested, () => set(Object.keys(nested).length === 0 ? undefined : nested), path));
  }
  const text = h('input', { id, 'data-testid': id, type: 'text', placeholder: 'JSON value' });
  text.addEventListener('input', () => {
    if (text.value === '') return set(undefined);
    try {
      set(JSON.parse(text.value));
      text.classList.remove('error');
    } catch {
      text.classList.add('error');
    }
  });
  return text;
}
