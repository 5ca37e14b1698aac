// CSV and NDJSON answers of the paid exports (history, candles), streamed from the database a window at a time.
import { pipeline, Readable, Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { ExportFormat } from '@afrofx/shared';

/** The format asked for: the format parameter, else an Accept header naming csv or ndjson, else JSON. */
export function answerFormat(accept: string | undefined, format: ExportFormat | undefined): ExportFormat {
  if (format) return format;
  const header = (accept ?? '').toLowerCase();
  const csv = header.indexOf('text/csv');
  const ndjson = header.indexOf('application/x-ndjson');
  if (csv < 0 && ndjson < 0) return 'json';
  // Both named: the one listed first.
  return ndjson < 0 || (csv >= 0 && csv < ndjson) ? 'csv' : 'ndjson';
}

/**
 * Streams the rows of `batches` as CSV or NDJSON. The first batch is read before the request is charged, so a
 * query that fails at once costs nothing and answers a plain 500. A later batch that fails cuts the answer off:
 * the request is then logged as the 500 it is and its count given back, where the client would only see a
 * broken download.
 */
export async function streamRows<T extends object>(
  reply: FastifyReply,
  format: 'csv' | 'ndjson',
  batches: AsyncGenerator<T[]>,
  columns: Array<keyof T & string>,
  filename: string,
  etag: string,
) {
  const first = await batches.next();
  await reply.conditional(etag);
  async function* rows() {
    if (first.done) return;
    yield* first.value;
    for await (const batch of batches) yield* batch;
  }
  const body =
    format === 'csv'
      ? stringify({ header: true, columns })
      : new Transform({
          writableObjectMode: true,
          transform(row: T, _encoding, callback) {
            callback(null, `${JSON.stringify(row)}\n`);
          },
        });
  pipeline(Readable.from(rows()), body, (err) => {
    // A client gone mid-stream closes the pipeline early; the abort hook logs that one as 499.
    if (!err || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    reply.log.error({ err }, 'streamed answer failed');
    reply.settle(500);
  });
  if (format === 'csv') {
    void reply.header('Content-Disposition', `attachment; filename="${filename}.csv"`);
    return reply.type('text/csv; charset=utf-8').send(body);
  }
  return reply.type('application/x-ndjson; charset=utf-8').send(body);
}
