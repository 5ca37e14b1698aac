// Tells every API process that cached facts changed (a key rotated, an account disabled, a subscription or a
// rate changed). In-process always; across processes through Redis pub/sub when Redis is present.
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';

export type Change =
  | { kind: 'app'; appId: string }
  | { kind: 'account'; accountId: string }
  | { kind: 'rates' }
  /** A quota counter went missing in Redis: every process writes its counts before it is seeded again. */
  | { kind: 'quota-flush' }
  /** Messages may have been missed while Redis was unreachable: drop every cached fact. */
  | { kind: 'resync' };

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
  // DESIGN §7: a request publishing a change never waits on a dead Redis: no offline queue, one second at most.
  const publisher = new IORedis(options.redisUrl, {
    enableOfflineQueue: false,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
  });
  // Resubscribed by hand on every connection, so the resync below goes out once the subscription is live again.
  const subscriber = new IORedis(options.redisUrl, { maxRetriesPerRequest: null, autoResubscribe: false });
  publisher.on('error', (err) => options.onError?.(err));
  subscriber.on('error', (err) => options.onError?.(err));

  let subscribedBefore = false;
  subscriber.on('ready', () => {
    subscriber.subscribe(options.channel).then(
      () => {
        // Whatever was published while this connection was down is lost: caches start over.
        if (subscribedBefore) deliver({ kind: 'resync' });
        subscribedBefore = true;
      },
      (err: Error) => options.onError?.(err),
    );
  });
  subscriber.on('message', (_channel, message: string) => {
    const { from, change } = JSON.parse(message) as { from: string; change: Change };
    if (from !== origin) deliver(change);
  });

  // A change this process could not publish was missed by every other process: tell them once Redis is back.
  let unpublished = false;
  const send = (change: Change) =>
    publisher.publish(options.channel, JSON.stringify({ from: origin, change }));
  publisher.on('ready', () => {
    if (!unpublished) return;
    unpublished = false;
    send({ kind: 'resync' }).catch(() => {
      unpublished = true;
    });
  });

  return {
    async publish(change) {
      deliver(change);
      try {
        await send(change);
      } catch (err) {
        unpublished = true;
        options.onError?.(err as Error);
      }
    },
    subscribe: (handler) => void handlers.push(handler),
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
