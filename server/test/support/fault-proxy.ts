// A TCP proxy in front of a real server (PostgreSQL, Redis, SMTP) that a test can cut or stall, so the code under
// test meets a real outage on a real connection: `cut()` drops every connection and refuses new ones, `stall()`
// keeps connections open but passes no bytes, `restore()` lets traffic through again.
import net from 'node:net';

export interface FaultProxy {
  /** Where the code under test should connect instead of the real server. */
  readonly port: number;
  /** `target` with the host and port replaced by the proxy's. */
  url(target: string): string;
  cut(): void;
  stall(): void;
  /** Bytes held by a stall so far: a test waits on this to know a request is on the wire. */
  heldBytes(): number;
  restore(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetHost: string, targetPort: number): Promise<FaultProxy> {
  let mode: 'open' | 'cut' | 'stall' = 'open';
  const pairs = new Set<[net.Socket, net.Socket]>();
  /** Bytes that arrived while stalled, passed on in order at restore(). */
  let held: Array<[net.Socket, Buffer]> = [];

  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    const relay = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => (mode === 'stall' ? held.push([to, chunk]) : to.write(chunk)));
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const proxy: FaultProxy = {
    port,
    url(target) {
      const url = new URL(target);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      mode = 'cut';
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      held = [];
    },
    stall() {
      mode = 'stall';
    },
    heldBytes: () => held.reduce((n, [, chunk]) => n + chunk.length, 0),
    restore() {
      mode = 'open';
      for (const [to, chunk] of held) if (!to.destroyed) to.write(chunk);
      held = [];
    },
    async close() {
      proxy.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
