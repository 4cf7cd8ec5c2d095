import type { ImportProblem } from './import-error.js';
import type { AppliedCredential, UpstreamCredential } from './upstream-call.js';

interface SecurityScheme { type?: string; scheme?: string; in?: string; name?: string }

/**
 * Resolves an operation's security requirements (its own `security`, else the document's) against
 * the credentials the operator gave: the first alternative whose every scheme has a matching
 * credential wins. Supported: HTTP bearer, HTTP basic, API key in a header or the query. An
 * operation that needs credentials none of which were given still becomes a tool, with a warning
 * (its calls get the upstream's 401 as an `isError` result).
 */
export function resolveCredentials(
  operation: string, requirements: readonly Record<string, unknown>[] | undefined, schemes: Readonly<Record<string, SecurityScheme>>,
  credentials: Readonly<Record<string, UpstreamCredential>>, problems: ImportProblem[],
): AppliedCredential[] {
  if (requirements === undefined || requirements.length === 0) return [];
  const reasons: string[] = [];
  for (const requirement of requirements) {
    const applied: AppliedCredential[] = [];
    let usable = true;
    for (const name of Object.keys(requirement)) {
      const result = apply(name, schemes[name], credentials[name]);
      if (typeof result === 'string') {
        reasons.push(result);
        usable = false;
        break;
      }
      applied.push(result);
    }
    if (usable) return applied; // `{}` (anonymous allowed) is usable with nothing applied.
  }
  problems.push({ operation, code: 'missing-credentials', severity: 'warning', message: `no usable credentials: ${[...new Set(reasons)].join('; ')}` });
  return [];
}

function apply(name: string, scheme: SecurityScheme | undefined, credential: UpstreamCredential | undefined): AppliedCredential | string {
  if (scheme === undefined) return `security scheme "${name}" is not defined in components.securitySchemes`;
  if (credential === undefined) return `no credential given for scheme "${name}"`;
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
    if (credential.type !== 'bearer') return `scheme "${name}" is HTTP bearer but its credential is ${credential.type}`;
    return { in: 'header', name: 'authorization', value: `Bearer ${credential.token}` };
  }
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    if (credential.type !== 'basic') return `scheme "${name}" is HTTP basic but its credential is ${credential.type}`;
    return { in: 'header', name: 'authorization', value: `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}` };
  }
  if (scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && typeof scheme.name === 'string') {
    if (credential.type !== 'apiKey') return `scheme "${name}" is an API key but its credential is ${credential.type}`;
    return { in: scheme.in, name: scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name, value: credential.value };
  }
  return `scheme "${name}" (${scheme.type ?? 'no type'}${scheme.in ? ` in ${scheme.in}` : ''}${scheme.scheme ? ` ${scheme.scheme}` : ''}) is not supported`;
}

/** Header names set by API-key schemes, so a parameter of the same name is never taken from the caller. */
export function credentialHeaderNames(schemes: Readonly<Record<string, SecurityScheme>>): Set<string> {
  const names = new Set<string>();
  for (const scheme of Object.values(schemes)) if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') names.add(scheme.name.toLowerCase());
  return names;
}
