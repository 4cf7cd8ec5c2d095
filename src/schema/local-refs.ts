import { hasMemberNamed } from '../json/has-member.js';
import { SchemaCompileError } from './compile-error.js';
import { resolvePointer } from './pointer.js';
import { walkSchema } from './walk.js';
import type { Dialect } from './types.js';

/**
 * In a document without embedded resources (no `$id` below the root), every fragment-only `$ref`
 * must name a location or an anchor of this document: check that up front so the error names the
 * reference. References into embedded resources and to other documents are checked by the engine
 * that resolves them.
 */
export function assertLocalRefsResolve(root: object | boolean, dialect: Dialect): void {
  // Most tool schemas have no $ref at all; the plain scan costs far less than the walk below.
  if (!hasMemberNamed(root, '$ref')) return;
  const refs: Array<[string, string]> = [];
  const anchors = new Set<string>();
  let embedded = false;
  walkSchema(root, (node) => {
    if (typeof node.schema === 'boolean') return;
    const s = node.schema as Record<string, unknown>;
    if (node.depth > 0 && (typeof s.$id === 'string' || (dialect === 'draft-07' && typeof s.$id === 'string'))) embedded = true;
    if (typeof s.$anchor === 'string') anchors.add(s.$anchor);
    if (typeof s.$dynamicAnchor === 'string') anchors.add(s.$dynamicAnchor);
    if (dialect === 'draft-07' && typeof s.$id === 'string' && s.$id.startsWith('#')) anchors.add(s.$id.slice(1));
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#')) refs.push([node.pointer, s.$ref]);
  }, { dialect });
  if (embedded) return;
  for (const [at, ref] of refs) {
    const fragment = ref.slice(1);
    if (fragment === '' ) continue;
    if (fragment.startsWith('/')) {
      if (resolvePointer(root, ref) === undefined) {
        throw new SchemaCompileError(`${at}/$ref`, `cannot resolve $ref ${JSON.stringify(ref)}: no such location in this document`);
      }
    } else {
      let name = fragment;
      try { name = decodeURIComponent(fragment); } catch { /* keep as written */ }
      if (!anchors.has(name)) throw new SchemaCompileError(`${at}/$ref`, `cannot resolve $ref ${JSON.stringify(ref)}: no $anchor ${JSON.stringify(name)} in this document`);
    }
  }
}
