// The export of every rate as CSV, mailed by the rates-csv job.
import { Readable, pipeline } from 'node:stream';
import { and, count, desc, getViewSelectedFields, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/client';
// Every read goes through the served view: the newest revision of each record, withdrawn ones left out.
import { servedRates as rates } from '../../db/schema';
import type { Enqueue } from '../../queue/enqueue';

const EXPORT_BATCH = 1000;

const COLUMNS = [
  'id',
  'market',
  'base',
  'asset',
  'buy',
  'sell',
  'createdAt',
  'updatedAt',
  'source',
  'publicationId',
  'revision',
];

export function createRatesCsvService(db: Database, enqueue: Enqueue) {
  return {
    request(email: string): Promise<void> {
      return enqueue('rates-csv', { email });
    },

    /**
     * Every rate that exists when the export starts, oldest first, as a CSV stream for the mail attachment. Rows are
     * read in keyset batches only as the mail takes them, so memory stays flat however many rates there are.
     */
    async csv(): Promise<{ csv: Readable; rowCount: number }> {
      // The key is read as text: a JS Date keeps milliseconds and would repeat rows created in the same millisecond.
      const key = { at: sql<string>`${rates.createdAt}::text`, id: rates.id };
      const after = (k: { at: string; id: string }) =>
        sql`(${rates.createdAt}, ${rates.id}) > (${k.at}::timestamptz, ${k.id}::uuid)`;
      const upTo = (k: { at: string; id: string }) =>
        sql`(${rates.createdAt}, ${rates.id}) <= (${k.at}::timestamptz, ${k.id}::uuid)`;

      // Rates added while the export streams are left out, so the count in the mail matches the file.
      const [last] = await db.select(key).from(rates).orderBy(desc(rates.createdAt), desc(rates.id)).limit(1);
      const [total] = last ? await db.select({ value: count() }).from(rates).where(upTo(last)) : [];

      async function* rows() {
        if (!last) return;
        let from: { at: string; id: string } | undefined;
        for (;;) {
          const batch = await db
            .select({ ...getViewSelectedFields(rates), key })
            .from(rates)
            .where(and(upTo(last), from && after(from)))
            .orderBy(rates.createdAt, rates.id)
            .limit(EXPORT_BATCH);
          for (const { publishedBy: _publishedBy, ...row } of batch) {
            yield {
              ...row,
              createdAt: row.createdAt.toISOString(),
              updatedAt: row.updatedAt.toISOString(),
            };
          }
          if (batch.length < EXPORT_BATCH) return;
          from = batch.at(-1)!.key;
        }
      }

      const csv = stringify({ header: true, columns: COLUMNS });
      // A failed read destroys the CSV stream with its error, which fails the mail that reads it.
      pipeline(Readable.from(rows()), csv, () => {});
      return { csv, rowCount: total?.value ?? 0 };
    },
  };
}

export type RatesCsvService = ReturnType<typeof createRatesCsvService>;
