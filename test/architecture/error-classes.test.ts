/**
 * The one error hierarchy (src/errors/toolwright-error.ts): every error class of src/ extends the
 * class of its role, keeps its public name for `instanceof`, its `name` and its message byte for
 * byte, and carries its role and code. The source scan fails on a new class that extends Error
 * directly.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/repo-paths.js';
import {
  AuditKeyError, BearerTokenError, DefinitionError, ErasSettingError, HashChainLogLockedError, InputError, ProtocolError, ServerDefinitionError,
  StoreEpochError, StoreError, StoreFullError, StoreUnavailableError, ToolDefinitionError, ToolwrightError, VolatileStoreError, WireError,
} from '../../src/index.js';
import { PatternError, SchemaCompileError } from '../../src/schema/index.js';
import { McpClientError } from '../../src/client/index.js';
import { HostError } from '../../src/host/index.js';
import { LintConfigError, PinLockError } from '../../src/lint/index.js';
import { OAuthMetadataError } from '../../src/protocol/oauth-metadata.js';
import { MessageTooDeepError } from '../../src/protocol/message-json.js';
import { TaskWriteConflictError } from '../../src/server/tasks/task-store.js';
import { GatewayConfigError } from '../../src/cli/gateway/nginx-config.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { ModuleImportError } from '../../src/cli/import-module.js';
import { ToolTargetError } from '../../src/cli/load-tool-target.js';
import { EvalError } from '../../src/eval/eval-error.js';
import { DiffTargetError } from '../../src/diff/load-catalog.js';
import { OpenApiImportError, ProxyConfigError, ProxyError, TransformError, rename } from '../../src/compose/index.js';
import { MountError } from '../../src/server/index.js';
import type { PersistenceVerdict } from '../../src/server/store/redis-persistence.js';

const BUILT_IN_ERRORS = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'URIError', 'AggregateError'];

type Row = readonly [error: ToolwrightError, named: abstract new (...args: never[]) => Error, role: abstract new (...args: never[]) => ToolwrightError, errorCode: string, name: string, message: string];

const verdict = { durable: false, source: 'config', appendonly: false, appendfsync: 'everysec', maxmemoryPolicy: 'noeviction', problems: ['appendonly is off'] } as unknown as PersistenceVerdict;

const ROWS: readonly Row[] = [
  [new PatternError('no lookaround'), PatternError, DefinitionError, 'pattern', 'Error', 'no lookaround'],
  [new SchemaCompileError('/a', 'bad'), SchemaCompileError, DefinitionError, 'schema', 'SchemaCompileError', 'invalid schema at /a: bad'],
  [new ToolDefinitionError('t', 'no schema'), ToolDefinitionError, DefinitionError, 'tool-definition', 'ToolDefinitionError', 'Tool "t": no schema'],
  [new ServerDefinitionError([{ tool: 't', field: 'name', code: 'name-characters', message: 'bad name' }]), ServerDefinitionError, DefinitionError, 'server-definition', 'ServerDefinitionError', 'Invalid tool definition; the server was not created:\n- tool "t": bad name'],
  [new AuditKeyError('key is readable by others'), AuditKeyError, DefinitionError, 'audit-key', 'AuditKeyError', 'key is readable by others'],
  [new VolatileStoreError('redis://x', verdict), VolatileStoreError, DefinitionError, 'volatile-store', 'VolatileStoreError', 'refusing to keep approvals and claims in redis://x: it does not keep every write (appendonly is off). Fix: run Redis with `appendonly yes` and `appendfsync everysec` (or always), in redis.conf or `CONFIG SET appendonly yes` then `CONFIG REWRITE`; or, knowing that a Redis restart then lets an approval run twice, pass --allow-volatile-store (createServer: guardRedisStore(store, { allowVolatile: true }))'],
  [new LintConfigError('rules must be an object'), LintConfigError, DefinitionError, 'lint-config', 'LintConfigError', 'rules must be an object'],
  [new GatewayConfigError('bad listen'), GatewayConfigError, DefinitionError, 'gateway-config', 'GatewayConfigError', 'bad listen'],
  [new MountError('mount[0]: prefix must be 1-64 of [A-Za-z0-9_.-]'), MountError, DefinitionError, 'mount', 'MountError', 'createServer: mount[0]: prefix must be 1-64 of [A-Za-z0-9_.-]'],
  [new StoreUnavailableError('redis', 'down'), StoreUnavailableError, StoreError, 'store-unavailable', 'StoreUnavailableError', 'store unavailable: redis: down'],
  [new StoreEpochError('e1', 'e2'), StoreEpochError, StoreError, 'store-epoch', 'StoreEpochError', 'store epoch changed: the claim was sealed under epoch e1, the store is now in epoch e2 (it lost its memory, e.g. a Redis restarted empty)'],
  [new StoreFullError('claims', 3), StoreFullError, StoreError, 'store-full', 'StoreFullError', 'store is full: 3 live claims; refusing rather than forgetting one (raise maxEntries or use a shared store)'],
  [new TaskWriteConflictError('t1'), TaskWriteConflictError, StoreError, 'task-write-conflict', 'TaskWriteConflictError', 'task t1: 32 concurrent writes in a row won over this one; giving up'],
  [new HashChainLogLockedError('in use'), HashChainLogLockedError, StoreError, 'log-locked', 'HashChainLogLockedError', 'in use'],
  [new ProtocolError(-32600, 'bad'), ProtocolError, WireError, 'protocol', 'ProtocolError', 'bad'],
  [new McpClientError('rpc', 'refused'), McpClientError, WireError, 'client', 'McpClientError', 'refused'],
  [new BearerTokenError('invalid_token', 'expired'), BearerTokenError, WireError, 'bearer-token', 'BearerTokenError', 'expired'],
  [new MessageTooDeepError(3), MessageTooDeepError, WireError, 'message-too-deep', 'MessageTooDeepError', 'the message nests objects and arrays deeper than 1100 levels; nothing of it was read or run'],
  [new OAuthMetadataError('invalid', 'not JSON'), OAuthMetadataError, WireError, 'oauth-metadata', 'OAuthMetadataError', 'not JSON'],
  [new UsageError('--x needs a value'), UsageError, InputError, 'usage', 'Error', '--x needs a value'],
  [new ModuleImportError('cannot load', 'load'), ModuleImportError, InputError, 'module-import', 'ModuleImportError', 'cannot load'],
  [new ToolTargetError('no such file'), ToolTargetError, InputError, 'tool-target', 'ToolTargetError', 'no such file'],
  [new DiffTargetError('no such revision'), DiffTargetError, InputError, 'diff-target', 'DiffTargetError', 'no such revision'],
  [new PinLockError('not a lockfile'), PinLockError, InputError, 'pin-lock', 'PinLockError', 'not a lockfile'],
  [new EvalError('case-file', 'cases must be a list'), EvalError, InputError, 'eval', 'EvalError', 'cases must be a list'],
  [new HostError('unknown_provider', 'no provider x'), HostError, InputError, 'host', 'HostError', 'no provider x'],
  [new OpenApiImportError('invalid_ref', 'no such $ref'), OpenApiImportError, InputError, 'openapi-import', 'OpenApiImportError', 'no such $ref'],
  [new TransformError(0, rename('a', 'b'), 'no tool "a"'), TransformError, DefinitionError, 'transform', 'TransformError', 'transform 0 (rename of "a"): no tool "a"'],
  [new ProxyError('name_collision', 'twice'), ProxyError, DefinitionError, 'proxy', 'ProxyError', 'twice'],
  [new ProxyConfigError([{ pointer: '/upstreams', message: 'expected array' }]), ProxyConfigError, DefinitionError, 'proxy-config', 'ProxyConfigError', 'invalid proxy configuration:\n- /upstreams: expected array'],
];

describe('the error hierarchy', () => {
  it('every class keeps its name, its message and instanceof, and gains its role and code', () => {
    for (const [error, named, role, errorCode, name, message] of ROWS) {
      assert.ok(error instanceof named, `${name}: instanceof its own class`);
      assert.ok(error instanceof role, `${name}: instanceof ${role.name}`);
      assert.ok(error instanceof ToolwrightError && error instanceof Error, `${name}: instanceof ToolwrightError and Error`);
      assert.equal(error.errorCode, errorCode);
      assert.equal(error.name, name);
      assert.equal(error.message, message);
    }
    assert.deepEqual(new Set(ROWS.map((r) => r[0].role)), new Set(['definition', 'store', 'wire', 'input']));
  });

  it('members the classes had before are unchanged', () => {
    assert.equal(new ProtocolError(-32602, 'x', { httpStatus: 400 }).code, -32602);
    assert.equal(new McpClientError('timeout', 'x').kind, 'timeout');
    assert.equal(new HostError('unknown_tool', 'x', 't').code, 'unknown_tool');
    assert.equal(new EvalError('model-target', 'x').code, 'model-target');
    assert.equal(new OAuthMetadataError('not-found', 'x').reason, 'not-found');
  });

  it('ErasSettingError stays a TypeError (its documented type), outside the hierarchy', () => {
    const error = new ErasSettingError('eras: x');
    assert.ok(error instanceof TypeError);
    assert.equal(error instanceof ToolwrightError, false);
  });

  it('no class of src/ extends Error directly any more, and the table above names every class extending a role', () => {
    const direct: string[] = [];
    const classes: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8');
          for (const m of text.matchAll(/class (\w+) extends (\w*Error)\b/g)) {
            // A built-in error class (TypeError, RangeError, ...) is outside the hierarchy too; ErasSettingError is the documented exception.
            if (m[2] === 'Error' || (BUILT_IN_ERRORS.includes(m[2] as string) && m[1] !== 'ErasSettingError')) direct.push(`${relative(REPO_ROOT, path)}: ${m[1]} extends ${m[2]}`);
            // A class extending a named class (TokenEndpointError extends McpClientError) inherits its role.
            else if (m[1] !== undefined && ['DefinitionError', 'StoreError', 'WireError', 'InputError'].includes(m[2] as string)) classes.push(m[1]);
          }
        }
      }
    };
    walk(join(REPO_ROOT, 'src'));
    assert.deepEqual(direct, []);
    assert.deepEqual(classes.sort(), ROWS.map((r) => r[4] === 'Error' ? (r[1] as { name: string }).name : r[4]).sort());
  });
});
