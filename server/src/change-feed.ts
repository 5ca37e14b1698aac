// Tells every API process that cached facts changed (a key rotated, an account disabled, a subscription or a
// rate changed). In-process always; across processes through Redis pub/sub when Redis is present.
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';

export type Change =
  | { kind: 'app'; appId: string }
  | { kind: 'account'; accountId: string }
  | { kind: 'rates' }
  /** A quota counter went missing in Redis: every process writes its counts before it is seeded again. */
  | { kind: 'quota-flush' };

export interface ChangeFeed {
  publish(change: Change): Promise<void>;
  subscribe(handler: (change: Change) => void): void;
  close(): Promise<void>;
}

export function createChangeFeed(options: {
  redisUrl?: string;
  channel: string;
  onError?: (err: Error) => void;
}): ChangeFeed {
  const handlers: Array<(change: Change) => void> = [];
  const deliver = (change: Change) => handlers.forEach((handler) => handler(change));
  if (!options.redisUrl) {
    return {
      async publish(change) {
        deliver(change);
      },
      subscribe: (handler) => void handlers.push(handler),
      async close() {},
    };
  }

  const origin = randomUUID();
  const publisher = new IORedis(options.redisUrl, { maxRetriesPerRequest: 2 });
  const subscriber = new IORedis(options.redisUrl, { maxRetriesPerRequest: null });
  publisher.on('error', (err) => options.onError?.(err));
  subscriber.on('error', (err) => options.onError?.(err));
  void subscriber.subscribe(options.channel).catch((err: Error) => options.onError?.(err));
  subscriber.on('message', (_channel, message: string) => {
    const { from, change } = JSON.parse(message) as { from: string; change: Change };
    if (from !== origin) deliver(change);
  });
  return {
    async publish(change) {
      deliver(change);
      await publisher.publish(options.channel, JSON.stringify({ from: origin, change }));
    },
    subscribe: (handler) => void handlers.push(handler),
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
