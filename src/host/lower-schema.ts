import { walkSchema, SUBSCHEMA_KEYWORDS, resolvePointer, escapePointerToken, dialectOfUri } from '../schema/index.js';
import type { Dialect, SchemaVisit } from '../schema/index.js';
import { HostError } from './host-error.js';
import { NOT_MODEL_FACING } from './profiles.js';
import type { LoweringPolicy } from './profiles.js';
import type { LossAction, LossEntry } from './types.js';

type Json = Record<string, unknown>;

/** The outcome of lowering one `inputSchema` under one policy. */
export interface LoweredSchema {
  schema: Json;
  /** Every keyword met and what happened to it (pointers into the original schema). */
  loss: LossEntry[];
  /** Original pointers of optional properties that strict lowering made required and nullable. */
  nullableOptional: string[];
  /** Root-level constraints that moved out of the schema; they belong in the tool description. */
  rootNotes: string[];
}

/** How many times the same `$ref` target is inlined inside itself before the recursion is cut. */
const INLINE_RECURSION_LIMIT = 2;
/**
 * Most `$ref` copies one lowering may inline. Several recursive refs multiply each other's copies
 * (exponential in the number of refs per level), so past this budget refs are cut like recursion.
 */
const INLINE_BUDGET = 200;

const OPENAPI_TYPE: Readonly<Record<string, string>> = {
  string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT',
};

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cloneJson<T>(value: T): T {
  // JSON round trip (not structuredClone): subschemas shared by reference in authored tools must
  // become separate nodes, because lowering edits nodes in place.
  return JSON.parse(JSON.stringify(value)) as T;
}

function typeList(schema: Json): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function allowsNull(schema: Json): boolean {
  if (typeList(schema)?.includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isObject(b) && allowsNull(b))) return true;
  return false;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The top-level resource a pointer lies in: "" (the root) or "/$defs/<name>" (or definitions). */
function ownerOf(pointer: string): string {
  const match = /^\/(\$defs|definitions)\/[^/]+/.exec(pointer);
  return match ? match[0] : '';
}

/**
 * Pointers of the local `$ref`s that take part in a cycle (a definition reaching itself, or the
 * root through `#`). Works on the definition graph: owner of the ref → owner of its target.
 */
function recursiveRefs(root: Json): string[] {
  const edges: Array<{ from: string; to: string; pointer: string }> = [];
  walkSchema(root, (node) => {
    if (typeof node.schema !== 'object') return;
    const ref = (node.schema as Json).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return;
    let target = '';
    try { target = decodeURIComponent(ref.slice(1)); } catch { return; }
    edges.push({ from: ownerOf(node.pointer), to: ownerOf(target), pointer: node.pointer });
  });
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (at === goal) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const e of edges) if (e.from === at) stack.push(e.to);
    }
    return false;
  };
  return edges.filter((e) => reaches(e.to, e.from)).map((e) => e.pointer);
}

/**
 * Lower an MCP `inputSchema` to what one provider accepts. Works on a copy; every keyword of the
 * original ends up in the loss report with its pointer. Uses the project's one schema walker:
 * each node is rewritten in place when it is visited, before the walker reads its children.
 */
export function lowerInputSchema(input: Json, policy: LoweringPolicy, toolName: string): LoweredSchema {
  if (!isObject(input)) throw new HostError('invalid_tool', `tool "${toolName}": inputSchema must be a JSON Schema object`, toolName);
  if (input.type !== 'object') {
    throw new HostError('invalid_tool', `tool "${toolName}": inputSchema root must have "type": "object" (got ${JSON.stringify(input.type) ?? 'no type'})`, toolName);
  }
  return new Lowering(input, policy).run();
}

class Lowering {
  private readonly origin = new WeakMap<object, string>();
  private readonly synthetic = new WeakSet<object>();
  private readonly chain = new WeakMap<object, readonly string[]>();
  private readonly loss: LossEntry[] = [];
  private readonly lossKeys = new Set<string>();
  private readonly nullable: string[] = [];
  private readonly rootNotes: string[] = [];
  private readonly dialect: Dialect;
  private inlined = 0;
  /** Nodes whose prefixItems came from a draft-07 tuple `items` (reported under that name). */
  private readonly tupleItems = new WeakSet<object>();

  constructor(private readonly original: Json, private readonly policy: LoweringPolicy) {
    this.dialect = (typeof original.$schema === 'string' ? dialectOfUri(original.$schema) : undefined) ?? '2020-12';
  }

  run(): LoweredSchema {
    const root = cloneJson(this.original);
    this.origin.set(root, '');
    if (!this.policy.recursion) {
      for (const pointer of recursiveRefs(this.original)) this.record(pointer, '$ref', 'rejected', 'recursive schemas are not supported in strict mode');
    }
    if (this.policy.flattenRootComposition) this.flattenRoot(root);
    walkSchema(root, (node) => this.visit(node), { dialect: this.dialect });
    if (root.properties === undefined) {
      root.properties = {};
      this.record('', 'properties', 'added', 'providers need "properties" even for tools without arguments');
    }
    return { schema: root, loss: this.loss, nullableOptional: this.nullable, rootNotes: this.rootNotes };
  }

  private record(pointer: string, keyword: string, action: LossAction, note?: string): void {
    const key = `${pointer}\u0000${keyword}\u0000${action}`;
    if (this.lossKeys.has(key)) return;
    this.lossKeys.add(key);
    this.loss.push(note === undefined ? { pointer, keyword, action } : { pointer, keyword, action, note });
  }

  private originOf(node: SchemaVisit): string {
    if (typeof node.schema === 'object') {
      const known = this.origin.get(node.schema);
      if (known !== undefined) return known;
    }
    if (!node.parent) return node.pointer;
    return this.originOf(node.parent) + node.pointer.slice(node.parent.pointer.length);
  }

  /** Remember where each child came from before the node is rearranged (renamed, merged, moved). */
  private registerChildren(schema: Json, pointer: string): void {
    const inherited = this.chain.get(schema) ?? [];
    const mark = (child: unknown, childPointer: string): void => {
      if (!isObject(child)) return;
      if (!this.origin.has(child)) this.origin.set(child, childPointer);
      if (!this.chain.has(child)) this.chain.set(child, inherited);
    };
    for (const [keyword, holder] of SUBSCHEMA_KEYWORDS[this.dialect]) {
      const value = schema[keyword];
      if (value === undefined) continue;
      const base = `${pointer}/${escapePointerToken(keyword)}`;
      if (Array.isArray(value)) value.forEach((item, i) => mark(item, `${base}/${i}`));
      else if (holder === 'map' || holder === 'map-of-schema-or-other') {
        if (isObject(value)) for (const [name, sub] of Object.entries(value)) mark(sub, `${base}/${escapePointerToken(name)}`);
      } else mark(value, base);
    }
  }

  private visit(node: SchemaVisit): void | 'skip' {
    if (typeof node.schema === 'boolean') {
      this.visitBoolean(node);
      return;
    }
    const schema = node.schema as Json;
    if (this.synthetic.has(schema)) {
      this.registerChildren(schema, this.origin.get(schema) ?? node.pointer);
      return;
    }
    let pointer = this.originOf(node);
    const notes: string[] = [];
    if (typeof schema.$ref === 'string') {
      const after = this.handleRef(schema, pointer);
      if (after === undefined) return 'skip';
      pointer = after;
    }
    this.registerChildren(schema, pointer);
    if (this.dialect === 'draft-07' && Array.isArray(schema.items)) {
      // draft-07 tuple form means what 2020-12 calls prefixItems.
      schema.prefixItems = schema.items;
      if (schema.additionalItems !== undefined) schema.items = schema.additionalItems; else delete schema.items;
      delete schema.additionalItems;
      this.tupleItems.add(schema);
    }
    if (this.policy.mergeAllOf) {
      for (let guard = 0; Array.isArray(schema.allOf) && guard < 16; guard++) this.mergeAllOf(schema, pointer, notes);
    }
    if (this.policy.oneOfAsAnyOf && Array.isArray(schema.oneOf)) this.oneOfAsAnyOf(schema, pointer, notes);
    if (this.policy.openApiTypes) this.hoistNullBranch(schema, pointer);
    if (this.policy.prefixItemsAsAnyOf && Array.isArray(schema.prefixItems)) this.prefixItemsAsAnyOf(schema, pointer, notes);
    if (this.policy.constAsEnum && 'const' in schema) this.constAsEnum(schema, pointer);
    if (this.policy.strictObjects || this.policy.openApiTypes) {
      if (!this.inferType(schema, pointer)) return 'skip';
    }
    for (const keyword of Object.keys(schema)) this.decide(schema, keyword, pointer, notes, node.depth === 0);
    if (this.policy.openApiTypes) this.openApiType(schema, pointer);
    if (this.isObjectNode(schema)) this.objectRules(schema, pointer, notes);
    if (typeList(schema)?.some((t) => t === 'array' || t === 'ARRAY') && schema.items === undefined) this.arrayWithoutItems(schema, pointer);
    if (notes.length > 0) {
      if (node.depth === 0) this.rootNotes.push(`Also required (checked by the server): ${notes.join('; ')}`);
      else schema.description = typeof schema.description === 'string' && schema.description.length > 0
        ? `${schema.description} (${notes.join('; ')})` : `(${notes.join('; ')})`;
    }
    return undefined;
  }

  private visitBoolean(node: SchemaVisit): void {
    if (node.schema !== true || !this.policy.strictObjects) return;
    if (node.keyword === 'additionalProperties' || node.keyword === 'unevaluatedProperties' || node.keyword === 'unevaluatedItems') return;
    this.record(this.originOf(node), '(true schema)', 'rejected', 'a `true` schema (any value) has no type; strict mode needs one');
  }

  /** Returns the pointer the node's keywords now come from, or undefined when the node was replaced. */
  private handleRef(schema: Json, pointer: string): string | undefined {
    let current = pointer;
    for (let guard = 0; typeof schema.$ref === 'string' && guard < 32; guard++) {
      const ref = schema.$ref;
      if (!ref.startsWith('#')) {
        this.record(current, '$ref', 'rejected', `external reference ${ref} is never fetched (MCP R-40)`);
        return current;
      }
      let target = '';
      try { target = decodeURIComponent(ref.slice(1)); } catch { target = '\u0000'; }
      if (target !== '' && !target.startsWith('/')) {
        this.record(current, '$ref', 'rejected', `anchor reference ${ref} is not supported by the lowering`);
        return current;
      }
      const resolved = resolvePointer(this.original, target);
      if (resolved === undefined || (typeof resolved !== 'boolean' && !isObject(resolved))) {
        this.record(current, '$ref', 'rejected', `reference ${ref} does not resolve inside the schema`);
        return current;
      }
      const siblings = Object.keys(schema).filter((k) => k !== '$ref');
      const style = this.policy.refs;
      if (style === 'keep') {
        this.record(current, '$ref', 'kept');
        return current;
      }
      const chain = this.chain.get(schema) ?? [];
      const recursive = chain.includes(target);
      if (style === 'top-level-defs') {
        const defsMatch = /^\/(\$defs|definitions)\/([^/]+)$/.exec(target);
        const topLevel = target === '' || defsMatch !== null;
        if (topLevel && defsMatch && defsMatch[1] === 'definitions') schema.$ref = `#/$defs/${defsMatch[2]}`;
        if (topLevel && (siblings.length === 0 || recursive || target === '')) {
          this.record(current, '$ref', 'kept', schema.$ref !== ref ? `respelled as ${String(schema.$ref)}` : undefined);
          if (siblings.length > 0 && this.policy.strictObjects) this.dropRefSiblings(schema, current, siblings);
          return current;
        }
        if (recursive) {
          this.record(current, '$ref', this.policy.strictObjects ? 'rejected' : 'dropped', `recursive reference ${ref} does not point at a top-level $defs entry`);
          if (!this.policy.strictObjects) delete schema.$ref;
          return current;
        }
      } else if (chain.filter((c) => c === target).length >= INLINE_RECURSION_LIMIT || this.inlined >= INLINE_BUDGET) {
        // No refs in the OpenAPI subset: the recursion is cut; deeper levels travel as JSON text,
        // which repairArguments parses back where the original schema expects an object.
        const why = this.inlined >= INLINE_BUDGET ? `the inlining budget (${INLINE_BUDGET} copies) is spent` : `recursive structure, cut after ${INLINE_RECURSION_LIMIT} levels`;
        for (const key of Object.keys(schema)) delete schema[key];
        schema.type = 'string';
        schema.description = `JSON text of a nested value of ${ref} (${why})`;
        this.record(current, '$ref', 'moved-into-description', `${why}: deeper values of ${ref} are sent as JSON text`);
        return current;
      }
      if (this.inlined >= INLINE_BUDGET) {
        this.record(current, '$ref', 'rejected', `inlining ${ref} would exceed the budget of ${INLINE_BUDGET} copies`);
        return current;
      }
      this.inlined++;
      this.inline(schema, resolved, target, ref, current, chain);
      current = target;
    }
    return current;
  }

  private dropRefSiblings(schema: Json, pointer: string, siblings: string[]): void {
    for (const key of siblings) {
      delete schema[key];
      this.record(pointer, key, 'dropped', 'no keywords may sit beside $ref in strict mode, and this $ref is recursive so it cannot be inlined');
    }
  }

  private inline(schema: Json, resolved: Json | boolean, target: string, ref: string, pointer: string, chain: readonly string[]): void {
    delete schema.$ref;
    this.record(pointer, '$ref', 'kept', `inlined ${ref}`);
    if (typeof resolved === 'boolean') {
      if (!resolved) schema.not = {};
      return;
    }
    const copy = cloneJson(resolved);
    delete copy.$defs;
    delete copy.definitions;
    for (const [key, value] of Object.entries(copy)) {
      if (!(key in schema)) schema[key] = value;
      else if (key !== 'description' && key !== 'title' && JSON.stringify(schema[key]) !== JSON.stringify(value)) {
        this.record(target, key, 'dropped', `the keyword beside ${ref} at ${pointer || '(root)'} takes precedence when inlined`);
      }
    }
    this.chain.set(schema, [...chain, target]);
    // Children of the inlined copy come from the target; the walker reaches them through this node.
    for (const [key, value] of Object.entries(copy)) if (isObject(value) || Array.isArray(value)) this.originFor(schema[key], `${target}/${escapePointerToken(key)}`);
  }

  private originFor(value: unknown, pointer: string): void {
    if (isObject(value)) {
      // A holder map (properties, $defs) or a schema: mark the object and its direct entries.
      if (!this.origin.has(value)) this.origin.set(value, pointer);
      for (const [k, v] of Object.entries(value)) if (isObject(v) && !this.origin.has(v)) this.origin.set(v, `${pointer}/${escapePointerToken(k)}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => { if (isObject(item) && !this.origin.has(item)) this.origin.set(item, `${pointer}/${i}`); });
    }
  }

  private resolveBranch(branch: unknown, pointer: string): { schema: Json | boolean; pointer: string } {
    if (isObject(branch) && typeof branch.$ref === 'string' && Object.keys(branch).length === 1 && branch.$ref.startsWith('#')) {
      let target = '';
      try { target = decodeURIComponent(branch.$ref.slice(1)); } catch { /* left unresolved below */ }
      const resolved = resolvePointer(this.original, target);
      if (isObject(resolved) && target !== '') {
        const copy = cloneJson(resolved);
        this.origin.set(copy, target);
        this.record(pointer, '$ref', 'kept', `inlined ${branch.$ref} to merge it`);
        return { schema: copy, pointer: target };
      }
    }
    if (isObject(branch)) {
      if (!this.origin.has(branch)) this.origin.set(branch, pointer);
      return { schema: branch, pointer: this.origin.get(branch) ?? pointer };
    }
    return { schema: branch === false ? false : true, pointer };
  }

  /** allOf: every branch applies, so its keywords are merged into the node. */
  private mergeAllOf(schema: Json, pointer: string, notes: string[]): void {
    const branches = schema.allOf as unknown[];
    delete schema.allOf;
    this.record(pointer, 'allOf', 'kept', 'merged into the enclosing schema');
    branches.forEach((raw, i) => {
      const { schema: branch, pointer: bp } = this.resolveBranch(raw, `${pointer}/allOf/${i}`);
      if (typeof branch === 'boolean') return;
      this.registerChildren(branch, bp);
      for (const [key, value] of Object.entries(branch)) {
        if (key === 'properties' && isObject(value)) {
          const props = isObject(schema.properties) ? schema.properties : (schema.properties = {});
          for (const [name, sub] of Object.entries(value)) {
            const existing = props[name];
            if (existing === undefined) props[name] = sub;
            else if (JSON.stringify(existing) !== JSON.stringify(sub)) {
              const both: Json = { allOf: [existing, sub] };
              this.origin.set(both, (isObject(existing) ? this.origin.get(existing) : undefined) ?? `${pointer}/properties/${escapePointerToken(name)}`);
              props[name] = both;
            }
          }
        } else if (key === 'required' && Array.isArray(value)) {
          const required = Array.isArray(schema.required) ? schema.required : [];
          schema.required = [...new Set([...required, ...value])];
        } else if (key === 'description' && typeof value === 'string') {
          if (schema.description === undefined) schema.description = value; else if (schema.description !== value) notes.push(value);
        } else if (key === 'type' && schema.type !== undefined) {
          const mine = typeList(schema) ?? [];
          const theirs = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
          const both = mine.filter((t) => theirs.includes(t) || (t === 'integer' && theirs.includes('number')))
            .concat(theirs.filter((t) => t === 'integer' && mine.includes('number')));
          schema.type = both.length === 1 ? both[0] : [...new Set(both)];
        } else if (!(key in schema)) {
          schema[key] = value;
        } else if (JSON.stringify(schema[key]) !== JSON.stringify(value)) {
          notes.push(`${key}: ${JSON.stringify(value)}`);
          this.record(bp, key, 'moved-into-description', 'conflicts with the same keyword in another allOf branch');
        }
      }
    });
  }

  private oneOfAsAnyOf(schema: Json, pointer: string, notes: string[]): void {
    if (schema.anyOf !== undefined) {
      notes.push(`exactly one of: ${JSON.stringify(schema.oneOf)}`);
      this.record(pointer, 'oneOf', 'moved-into-description', 'the node already has anyOf');
      delete schema.oneOf;
      return;
    }
    schema.anyOf = schema.oneOf;
    delete schema.oneOf;
    this.record(pointer, 'oneOf', 'kept', 'sent as anyOf; "exactly one" stays a server-side check');
  }

  /** OpenAPI has `nullable`, not a null branch: `anyOf:[X, {type:null}]` becomes X + nullable. */
  private hoistNullBranch(schema: Json, pointer: string): void {
    if (!Array.isArray(schema.anyOf)) return;
    const rest = schema.anyOf.filter((b) => !(isObject(b) && b.type === 'null' && Object.keys(b).length === 1));
    if (rest.length === schema.anyOf.length) return;
    schema.nullable = true;
    this.record(pointer, 'anyOf', 'kept', 'null alternative sent as nullable: true');
    if (rest.length === 1 && isObject(rest[0]) && schema.type === undefined) {
      const only = rest[0];
      delete schema.anyOf;
      for (const [key, value] of Object.entries(only)) if (!(key in schema)) schema[key] = value;
    } else {
      schema.anyOf = rest;
    }
  }

  private prefixItemsAsAnyOf(schema: Json, pointer: string, notes: string[]): void {
    const positional = schema.prefixItems as unknown[];
    const rest = schema.items;
    delete schema.prefixItems;
    const parts = [...positional, ...(isObject(rest) ? [rest] : [])];
    notes.push(`prefixItems (position by position): ${JSON.stringify(positional)}`);
    if (parts.length === 1) schema.items = parts[0];
    else {
      const wrapper: Json = { anyOf: parts };
      this.synthetic.add(wrapper);
      this.origin.set(wrapper, `${pointer}/prefixItems`);
      schema.items = wrapper;
    }
    if (rest === false) {
      const max = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, positional.length) : positional.length;
      schema.maxItems = max;
    }
    const keyword = this.tupleItems.has(schema) ? 'items' : 'prefixItems';
    this.record(pointer, keyword, 'moved-into-description', `${keyword === 'items' ? 'draft-07 tuple: ' : ''}items became anyOf of the positional schemas; the order is stated in the description`);
  }

  private constAsEnum(schema: Json, pointer: string): void {
    if (this.policy.enumStringsOnly && typeof schema.const !== 'string') return;
    if (schema.enum === undefined) schema.enum = [schema.const];
    delete schema.const;
    this.record(pointer, 'const', 'kept', 'sent as a one-value enum');
  }

  /** Strict and OpenAPI targets need an explicit type. Returns false when the node was rejected. */
  private inferType(schema: Json, pointer: string): boolean {
    if (schema.type !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined) return true;
    let inferred: string[] = [];
    if (Array.isArray(schema.enum)) inferred = [...new Set(schema.enum.map(jsonTypeOf))];
    else if ('const' in schema) inferred = [jsonTypeOf(schema.const)];
    else if (schema.properties !== undefined || schema.additionalProperties !== undefined || schema.required !== undefined) inferred = ['object'];
    else if (schema.items !== undefined || schema.prefixItems !== undefined) inferred = ['array'];
    if (inferred.includes('integer') && inferred.includes('number')) inferred = inferred.filter((t) => t !== 'integer');
    if (inferred.length === 0 && this.policy.openApiTypes) {
      schema.type = 'string';
      this.record(pointer, 'type', 'added', 'untyped (any value), but the OpenAPI Schema needs a type: sent as STRING, so the model passes text');
      return true;
    }
    if (inferred.length === 0) {
      if (this.policy.strictObjects) {
        this.record(pointer, 'type', 'rejected', 'a schema without "type" (any value) cannot be sent in strict mode');
        return false;
      }
      return true;
    }
    schema.type = inferred.length === 1 ? inferred[0] : inferred;
    this.record(pointer, 'type', 'added', `inferred ${JSON.stringify(schema.type)}`);
    return true;
  }

  private openApiType(schema: Json, pointer: string): void {
    const types = typeList(schema);
    if (!types) return;
    const nonNull = types.filter((t) => t !== 'null');
    if (types.includes('null')) schema.nullable = true;
    if (nonNull.length === 0) {
      delete schema.type;
      this.record(pointer, 'type', 'kept', 'null sent as nullable: true');
    } else if (nonNull.length === 1) {
      schema.type = OPENAPI_TYPE[nonNull[0]!] ?? nonNull[0];
      if (types.length > 1) this.record(pointer, 'type', 'kept', `sent as ${String(schema.type)} + nullable`);
    } else if (schema.anyOf === undefined) {
      delete schema.type;
      schema.anyOf = nonNull.map((t) => {
        const branch: Json = { type: OPENAPI_TYPE[t] ?? t };
        this.synthetic.add(branch);
        return branch;
      });
      this.record(pointer, 'type', 'kept', 'a type list is sent as anyOf of single types');
    } else {
      schema.type = OPENAPI_TYPE[nonNull[0]!] ?? nonNull[0];
      this.record(pointer, 'type', 'moved-into-description', `only ${nonNull[0]} kept; the node already has anyOf`);
    }
  }

  private decide(schema: Json, keyword: string, pointer: string, notes: string[], isRoot: boolean): void {
    const value = schema[keyword];
    if (keyword.startsWith('x-')) {
      delete schema[keyword];
      this.record(pointer, keyword, 'dropped', keyword === 'x-mcp-header'
        ? 'not model-facing: the client sends this argument as an Mcp-Param header' : 'extension keyword, not model-facing');
      return;
    }
    if (NOT_MODEL_FACING.has(keyword)) {
      delete schema[keyword];
      this.record(pointer, keyword, 'dropped', 'not model-facing');
      return;
    }
    if (keyword === '$ref' || (keyword === 'nullable' && this.policy.openApiTypes)) return;
    if (keyword === 'additionalProperties' && this.isObjectNode(schema)) return;
    if (keyword === '$defs' || keyword === 'definitions') {
      this.decideDefs(schema, keyword, pointer, isRoot);
      return;
    }
    const keep = this.policy.keep;
    if (keep === undefined) {
      this.record(pointer, keyword, 'kept');
      return;
    }
    if (keep.has(keyword)) {
      if (keyword === 'format' && this.policy.formats && !this.policy.formats.has(String(value))) {
        this.move(schema, keyword, pointer, notes, `format ${JSON.stringify(value)} is not in the provider's list`);
      } else if (keyword === 'pattern' && this.policy.forbiddenPattern && typeof value === 'string' && this.policy.forbiddenPattern.test(value)) {
        this.move(schema, keyword, pointer, notes, 'regex features the provider does not support (lookaround, backreferences, ...)');
      } else if (keyword === 'minItems' && this.policy.minItemsMax !== undefined && typeof value === 'number' && value > this.policy.minItemsMax) {
        this.move(schema, keyword, pointer, notes, `only minItems 0..${this.policy.minItemsMax} is supported`);
      } else if (keyword === 'enum' && this.policy.enumStringsOnly && Array.isArray(value) && value.some((v) => typeof v !== 'string')) {
        this.move(schema, keyword, pointer, notes, 'only string enums are accepted');
      } else {
        this.record(pointer, keyword, 'kept');
      }
      return;
    }
    if (keyword === 'patternProperties' && this.policy.strictObjects) {
      this.record(pointer, keyword, 'rejected', 'strict mode closes every object, so keys matching a pattern could never be sent');
      return;
    }
    this.move(schema, keyword, pointer, notes);
  }

  private move(schema: Json, keyword: string, pointer: string, notes: string[], why?: string): void {
    notes.push(`${keyword}: ${JSON.stringify(schema[keyword])}`);
    delete schema[keyword];
    this.record(pointer, keyword, 'moved-into-description', why);
  }

  private decideDefs(schema: Json, keyword: string, pointer: string, isRoot: boolean): void {
    if (this.policy.refs === 'keep') {
      this.record(pointer, keyword, 'kept');
      return;
    }
    if (this.policy.refs === 'top-level-defs' && isRoot) {
      if (keyword === 'definitions') {
        const defs = isObject(schema.$defs) ? schema.$defs : {};
        schema.$defs = { ...(schema.definitions as Json), ...defs };
        delete schema.definitions;
        this.record(pointer, keyword, 'kept', 'respelled as $defs');
      } else {
        this.record(pointer, keyword, 'kept');
      }
      return;
    }
    delete schema[keyword];
    this.record(pointer, keyword, 'dropped', 'definitions are inlined where they are referenced');
  }

  private objectRules(schema: Json, pointer: string, notes: string[]): void {
    const extra = schema.additionalProperties;
    if (this.policy.strictObjects) {
      if (extra === undefined) {
        schema.additionalProperties = false;
        this.record(pointer, 'additionalProperties', 'added', 'strict mode closes every object');
      } else if (extra === false) {
        this.record(pointer, 'additionalProperties', 'kept');
      } else {
        this.record(pointer, 'additionalProperties', 'rejected', extra === true
          ? 'strict mode cannot send an open object' : 'a map (additionalProperties with a schema) cannot be expressed in strict mode');
      }
      if (!isObject(schema.properties)) {
        schema.properties = {};
        if (pointer !== '') this.record(pointer, 'properties', 'added', 'strict objects list their properties');
      }
      if (this.policy.requireAll) this.requireAll(schema, pointer);
      else if (schema.required !== undefined) this.record(pointer, 'required', 'kept');
      return;
    }
    if (extra === undefined) return;
    if (this.policy.keep === undefined) {
      this.record(pointer, 'additionalProperties', 'kept');
    } else if (this.policy.mapsAllowed) {
      this.record(pointer, 'additionalProperties', 'kept');
    } else if (typeof extra === 'boolean') {
      delete schema.additionalProperties;
      this.record(pointer, 'additionalProperties', 'dropped', 'not expressible in this subset; the server still enforces it');
    } else {
      this.move(schema, 'additionalProperties', pointer, notes, 'maps are not expressible in this subset');
    }
  }

  private isObjectNode(schema: Json): boolean {
    return isObject(schema.properties) || (typeList(schema)?.some((t) => t === 'object' || t === 'OBJECT') ?? false);
  }

  /**
   * OpenAI strict refuses "array schema missing items"; the OpenAPI subset needs `items` on ARRAY.
   * Legacy Gemini gets STRING items (any value travels as text); strict falls back.
   */
  private arrayWithoutItems(schema: Json, pointer: string): void {
    if (this.policy.strictObjects && this.policy.itemsRequired) {
      this.record(pointer, 'items', 'rejected', 'an array without "items" (any elements) cannot be sent in strict mode');
    } else if (this.policy.openApiTypes) {
      schema.items = { type: 'STRING' };
      this.record(pointer, 'items', 'added', 'ARRAY needs items in the OpenAPI subset; elements of any type travel as text');
    }
  }

  /** Strict: every property is required; an optional one becomes nullable and is remembered. */
  private requireAll(schema: Json, pointer: string): void {
    const props = schema.properties as Json;
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    for (const name of required) {
      if (!(name in props)) this.record(pointer, 'required', 'rejected', `required property "${name}" has no schema, and strict mode closes the object`);
    }
    const madeNullable: string[] = [];
    for (const [name, child] of Object.entries(props)) {
      if (child === false) {
        delete props[name];
        this.record(`${pointer}/properties/${escapePointerToken(name)}`, '(false schema)', 'dropped', 'a forbidden property is simply not listed');
        continue;
      }
      if (required.has(name) || !isObject(child)) continue;
      const childPointer = this.origin.get(child) ?? `${pointer}/properties/${escapePointerToken(name)}`;
      if (allowsNull(child)) continue; // null is a real value here; it cannot also mean "absent"
      const types = typeList(child);
      if (types && !('const' in child)) {
        child.type = [...types, 'null'];
        if (Array.isArray(child.enum)) child.enum = [...child.enum, null];
      } else {
        const nullBranch: Json = { type: 'null' };
        const wrapper: Json = { anyOf: [child, nullBranch] };
        this.synthetic.add(wrapper);
        this.synthetic.add(nullBranch);
        this.origin.set(wrapper, childPointer);
        props[name] = wrapper;
      }
      this.nullable.push(childPointer);
      madeNullable.push(name);
    }
    schema.required = Object.keys(props);
    if (madeNullable.length > 0) {
      this.record(pointer, 'required', 'added', `optional ${madeNullable.map((n) => `"${n}"`).join(', ')} made required and nullable (null means absent)`);
    } else if (required.size > 0) {
      this.record(pointer, 'required', 'kept');
    }
  }

  private flattenRoot(root: Json): void {
    if (Array.isArray(root.allOf)) {
      this.registerChildren(root, '');
      const notes: string[] = [];
      for (let guard = 0; Array.isArray(root.allOf) && guard < 16; guard++) this.mergeAllOf(root, '', notes);
      this.rootNotes.push(...notes);
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(root[keyword])) this.mergeAlternatives(root, keyword);
    }
  }

  /**
   * Root oneOf/anyOf: providers want one object. The alternatives' properties are merged (a name
   * in several alternatives becomes the union of its schemas), only properties required by every
   * alternative stay required, and each alternative is spelled out in the tool description.
   */
  private mergeAlternatives(root: Json, keyword: 'oneOf' | 'anyOf'): void {
    const branches = (root[keyword] as unknown[]).map((raw, i) => this.resolveBranch(raw, `/${keyword}/${i}`));
    delete root[keyword];
    const props = isObject(root.properties) ? root.properties : {};
    const rootHad = new Set(Object.keys(props));
    const variants = new Map<string, unknown[]>();
    const forms: string[] = [];
    let common: Set<string> | undefined;
    let allClosed = branches.length > 0;
    for (const { schema: branch, pointer: bp } of branches) {
      if (typeof branch === 'boolean') {
        forms.push(branch ? 'any arguments' : 'nothing (this alternative never matches)');
        common = new Set();
        allClosed = false;
        continue;
      }
      if (this.policy.mergeAllOf) {
        const ignored: string[] = [];
        for (let guard = 0; Array.isArray(branch.allOf) && guard < 16; guard++) this.mergeAllOf(branch, bp, ignored);
      }
      this.registerChildren(branch, bp);
      const required = Array.isArray(branch.required) ? branch.required.filter((r): r is string => typeof r === 'string') : [];
      common = common === undefined ? new Set(required) : new Set(required.filter((r) => common!.has(r)));
      if (branch.additionalProperties !== false) allClosed = false;
      const parts: string[] = [];
      const label = typeof branch.title === 'string' ? branch.title : typeof branch.description === 'string' ? branch.description : undefined;
      if (label) parts.push(label);
      if (required.length > 0) parts.push(`requires ${required.join(', ')}`);
      if (isObject(branch.properties)) {
        for (const [name, sub] of Object.entries(branch.properties)) {
          if (isObject(sub) && 'const' in sub) parts.push(`${name} = ${JSON.stringify(sub.const)}`);
          if (!rootHad.has(name)) {
            const list = variants.get(name) ?? [];
            if (!list.some((v) => JSON.stringify(v) === JSON.stringify(sub))) list.push(sub);
            variants.set(name, list);
          }
        }
        this.record(bp, 'properties', 'kept', 'merged into the root object');
      }
      if (required.length > 0) this.record(bp, 'required', 'moved-into-description', 'stated per alternative');
      for (const [key, value] of Object.entries(branch)) {
        if (['properties', 'required', 'type', 'title', 'description', 'additionalProperties', '$defs', 'definitions'].includes(key)) continue;
        parts.push(`${key}: ${JSON.stringify(value)}`);
        this.record(bp, key, 'moved-into-description');
      }
      if (branch.additionalProperties !== undefined) this.record(bp, 'additionalProperties', allClosed ? 'kept' : 'dropped', 'merged: the root is closed only when every alternative is');
      forms.push(parts.length > 0 ? parts.join(', ') : 'no further requirements');
    }
    for (const [name, list] of variants) props[name] = this.mergeVariants(list);
    root.properties = props;
    const required = new Set([...(Array.isArray(root.required) ? root.required as string[] : []), ...(common ?? [])]);
    if (required.size > 0) root.required = [...required];
    if (allClosed && root.additionalProperties === undefined) root.additionalProperties = false;
    const header = keyword === 'oneOf' ? 'Exactly one of these argument forms applies' : 'At least one of these argument forms applies';
    this.rootNotes.push(`${header}: ${forms.map((f, i) => `(${i + 1}) ${f}`).join('; ')}.`);
    this.record('', keyword, 'moved-into-description', 'alternatives merged into one object; each form is stated in the tool description and the server validates the original');
  }

  private mergeVariants(list: unknown[]): unknown {
    if (list.length === 1) return list[0];
    const enumish = list.every((v) => isObject(v) && Object.keys(v).every((k) => ['const', 'enum', 'type', 'description', 'title'].includes(k))
      && (('const' in v) || Array.isArray(v.enum)));
    if (enumish) {
      const values: unknown[] = [];
      const types = new Set<string>();
      for (const v of list as Json[]) {
        this.record(this.origin.get(v) ?? '', 'const' in v ? 'const' : 'enum', 'kept', 'merged with the other alternatives into one enum');
        for (const value of 'const' in v ? [v.const] : (v.enum as unknown[])) {
          if (!values.some((x) => JSON.stringify(x) === JSON.stringify(value))) values.push(value);
        }
        for (const t of typeList(v) ?? []) types.add(t);
      }
      const merged: Json = {};
      if (types.size === 1) merged.type = [...types][0];
      merged.enum = values;
      const first = list[0] as Json;
      if (typeof first.description === 'string') merged.description = first.description;
      this.origin.set(merged, this.origin.get(first) ?? '');
      return merged;
    }
    const wrapper: Json = { anyOf: list };
    this.synthetic.add(wrapper);
    const first = list[0];
    if (isObject(first)) this.origin.set(wrapper, this.origin.get(first) ?? '');
    return wrapper;
  }
}
