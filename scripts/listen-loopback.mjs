/**
 * Preload (`node --import ./scripts/listen-loopback.mjs ...`) that makes every TCP server of a
 * third-party program listen on 127.0.0.1, whatever host it asked for. Each listening port is
 * printed on stderr as `listen-loopback <port>`, so a caller that started the program with port 0
 * can find it. Used for the MCP conformance suite's mock servers and for server-everything's HTTP
 * mode, which otherwise listen on all interfaces.
 *
 * Node binds a named host only after an asynchronous lookup, but these programs read
 * `server.address().port` right after `listen(0)`. So a free loopback port is chosen first (by a
 * short child process, synchronously) and `address()` reports it until the bind completes.
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';

const PICK_PORT = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";

function freeLoopbackPort() {
  return Number(execFileSync(process.execPath, ['-e', PICK_PORT], { encoding: 'utf8', timeout: 10_000, env: { ...process.env, NODE_OPTIONS: '' } }));
}

const original = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
  const passThrough = () => original.call(this, ...args, ...(callback ? [callback] : []));
  let port = 0;
  const first = args[0];
  if (typeof first === 'object' && first !== null) {
    // A pipe or handle is no network listener: leave it alone.
    if (first.path !== undefined || first.fd !== undefined || first.handle !== undefined || first._handle !== undefined) return passThrough();
    port = Number(first.port ?? 0);
  } else if (typeof first === 'string' && !/^\d+$/.test(first)) {
    return passThrough();
  } else if (first !== undefined) {
    port = Number(first);
  }
  if (port === 0) port = freeLoopbackPort();
  const address = this.address;
  this.address = () => ({ address: '127.0.0.1', family: 'IPv4', port });
  this.once('listening', () => {
    this.address = address;
    process.stderr.write(`listen-loopback ${port}\n`);
  });
  this.once('error', () => {
    this.address = address;
  });
  return original.call(this, { port, host: '127.0.0.1' }, ...(callback ? [callback] : []));
};
