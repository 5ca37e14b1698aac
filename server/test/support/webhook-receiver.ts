// A webhook receiver for tests: records each delivery's raw body and AfroFX headers, answers 204.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  body: string;
  signature: string;
  delivery: string;
}

export async function startWebhookReceiver(path = '/afrofx') {
  const received: ReceivedDelivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({
        body,
        signature: String(req.headers['afrofx-signature']),
        delivery: String(req.headers['afrofx-delivery']),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
