/**
 * Preload (`node --import ./scripts/listen-loopback.mjs ...`) that makes every TCP server of a
 * third-party program listen on 127.0.0.1, whatever host it asked for. Each listening port is printed on
 * stderr as `listen-loopback <port>`, so a caller that started the program with port 0 can find it.
 * Used for the MCP conformance suite's mock servers and for server-everything's HTTP mode, which
 * otherwise listen on all interfaces.
 */
import net from 'node:net';

const original = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
  let port = 0;
  const first = args[0];
  if (typeof first === 'object' && first !== null) {
    // A pipe or handle is no network listener: leave it alone.
    if (first.path !== undefined || first.fd !== undefined || first.handle !== undefined) return original.call(this, ...args, ...(callback ? [callback] : []));
    port = Number(first.port ?? 0);
  } else if (typeof first === 'string' && !/^\d+$/.test(first)) {
    return original.call(this, ...args, ...(callback ? [callback] : []));
  } else if (first !== undefined) {
    port = Number(first);
  }
  this.once('listening', () => {
    const address = this.address();
    if (address !== null && typeof address === 'object') process.stderr.write(`listen-loopback ${address.port}\n`);
  });
  return original.call(this, { port, host: '127.0.0.1' }, ...(callback ? [callback] : []));
};
