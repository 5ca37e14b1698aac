// What the fault run needs in its database, written with SQL after the API has migrated it: rates to serve, a
// developer with one app whose plan never runs out (to match every served request to its log row) and one small-plan
// app per fault (that the load pushes past its quota while the fault happens), and a mailing list per mailing fault.
import { ASSETS, BASES, MARKETS } from '@afrofx/shared';
import type pg from 'pg';
import { generateKeyPair } from '../../server/src/modules/api-keys/api-key-material';

export interface PaidApp {
  appId: string;
  privateKey: string;
  requestLimit: number;
}

export interface Fixtures {
  unlimited: PaidApp;
  /** One small-plan app per fault id. */
  smallPlan: Map<string, PaidApp>;
  /** Subscribers on each mailing fault's list. */
  subscribers: number;
}

/** Each mailing fault mails a list of its own, told apart by the domain of its addresses. */
export const mailingDomain = (faultId: string) => `${faultId}.faults.example`;

const DAY_MS = 86_400_000;
const BIG_LIMIT = 1_000_000_000;

async function paidApp(db: pg.Pool, accountId: string, name: string, requestLimit: number): Promise<PaidApp> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO apps (account_id, name) VALUES ($1, $2) RETURNING id',
    [accountId, name],
  );
  const appId = rows[0]!.id;
  const keys = generateKeyPair();
  await db.query(
    `INSERT INTO api_keys (app_id, public_key, private_key_hash, private_key_last4) VALUES ($1, $2, $3, $4)`,
    [appId, keys.publicKey, keys.privateKeyHash, keys.privateKeyLast4],
  );
  const now = Date.now();
  await db.query(
    `INSERT INTO subscriptions (app_id, plan_name, status, request_limit, starts_at, expire_at)
     VALUES ($1, $2, 'active', $3, $4, $5)`,
    [appId, `${name} plan`, requestLimit, new Date(now - DAY_MS), new Date(now + 300 * DAY_MS)],
  );
  return { appId, privateKey: keys.privateKey, requestLimit };
}

export async function writeFixtures(
  db: pg.Pool,
  faultIds: readonly string[],
  mailingFaultIds: readonly string[],
  options: { smallLimit: number; subscribers: number },
): Promise<Fixtures> {
  await db.query(
    `INSERT INTO rates (market, asset, base, buy, sell)
     SELECT m, a, b, 100 + random(), 101 + random()
     FROM unnest($1::market[]) m, unnest($2::asset[]) a, unnest($3::base[]) b`,
    [MARKETS, ASSETS, BASES],
  );
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO accounts (email, password_hash, first_name, last_name, role, is_activated)
     VALUES ('faults@example.com', 'unused', 'Fault', 'Run', 'developer', true) RETURNING id`,
  );
  const accountId = rows[0]!.id;
  const unlimited = await paidApp(db, accountId, 'Served vs logged', BIG_LIMIT);
  const smallPlan = new Map<string, PaidApp>();
  for (const id of faultIds) {
    smallPlan.set(id, await paidApp(db, accountId, `Quota during ${id}`, options.smallLimit));
  }
  for (const id of mailingFaultIds) {
    await db.query(
      `INSERT INTO mailing_list_subscribers (email, mail_type, is_activated)
       SELECT 'subscriber-' || i || '@' || $2, 'mailing_list', false FROM generate_series(1, $1) i`,
      [options.subscribers, mailingDomain(id)],
    );
  }
  return { unlimited, smallPlan, subscribers: options.subscribers };
}

/**
 * Makes the fault's list the only active one. A mailing an earlier fault left unfinished is first marked as sent to
 * every address, so that a late retry of it cannot mail this fault's list and pass for a duplicate.
 */
export async function activateMailingList(db: pg.Pool, faultId: string) {
  await db.query(
    `INSERT INTO rate_mailing_recipients (mailing_id, subscriber_id)
     SELECT m.id, s.id FROM rate_mailings m CROSS JOIN mailing_list_subscribers s WHERE m.completed_at IS NULL
     ON CONFLICT DO NOTHING`,
  );
  await db.query(
    `UPDATE mailing_list_subscribers
     SET is_activated = split_part(email, '@', 2) = $1, activated_at = now()`,
    [mailingDomain(faultId)],
  );
}
