// The desk's admin calls: a publication of many rows (the desk, scripts) and a CSV upload with a dry run.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DeskBoard,
  Envelope,
  PublicationCsvInput,
  PublicationCsvResult,
  PublicationInput,
  PublicationRefused,
  PublicationResult,
  RATE_BLOCK_COLUMNS,
  parseRateBlock,
} from '@afrofx/shared';
import { ok } from '../../http';
import type { DeskService } from './desk.service';
import { PublicationRefusedError } from './publications';

/** What app.ts hands these routes. */
export interface DeskRoutesOptions {
  services: { desk: DeskService };
}

const admin = { tags: ['Admin'], security: [{ bearerAuth: [] }] };

export const deskRoutes: FastifyPluginAsyncTypebox<DeskRoutesOptions> = async (app, { services }) => {
  const adminOnly = { onRequest: app.requireAdmin };
  const refused = (err: PublicationRefusedError) => ({
    message: err.message,
    statusCode: 400,
    error: 'Bad Request',
    issues: err.issues,
  });

  app.get(
    '/admin/desk',
    {
      ...adminOnly,
      schema: {
        ...admin,
        summary: 'The rate desk’s board',
        description:
          'Every market × base × asset with its last published buy and sell, each pair’s newest official reference figure, and the desk’s settings.',
        response: { 200: Envelope(DeskBoard) },
      },
    },
    async () => ok(await services.desk.board(), 'Desk fetched.'),
  );

  app.post(
    '/admin/rate_publications',
    {
      ...adminOnly,
      config: { activity: 'in-service' },
      schema: {
        ...admin,
        summary: 'Publish many rates as one publication',
        description:
          'Stores every row in one transaction with one timestamp, sends one change event and one rate.updated per webhook endpoint, or refuses them all with the issues of each row (400). A row that moves beyond the deskMovePercent setting from the last figure, or lies beyond deskOfficialDistancePercent from the official reference, needs `confirmed: true`. With `dryRun: true` nothing is stored and the answer lists the issues.',
        body: PublicationInput,
        response: {
          200: Envelope(PublicationResult),
          201: Envelope(PublicationResult),
          400: PublicationRefused,
        },
      },
    },
    async (request, reply) => {
      try {
        const result = await services.desk.publish(request.body, request.admin!.id);
        if (result.dryRun) return ok(result, 'Dry run: nothing was published.');
        return reply.status(201).send(ok(result, `${result.rates.length} rates published.`));
      } catch (err) {
        if (err instanceof PublicationRefusedError) return reply.status(400).send(refused(err));
        throw err;
      }
    },
  );

  app.post(
    '/admin/rate_publications/csv',
    {
      ...adminOnly,
      config: { activity: 'in-service' },
      schema: {
        ...admin,
        summary: 'Publish a CSV of rates, or preview it with a dry run',
        description: `One pair a line, columns ${RATE_BLOCK_COLUMNS.join(', ')}, comma- or tab-separated, with or without a header row. Lines that cannot be read are listed in \`unparsed\` and refuse the publication.`,
        body: PublicationCsvInput,
        response: {
          200: Envelope(PublicationCsvResult),
          201: Envelope(PublicationCsvResult),
          400: PublicationRefused,
        },
      },
    },
    async (request, reply) => {
      const { csv, confirmLines = [], dryRun = false } = request.body;
      const { rows, errors } = parseRateBlock(csv);
      const lines = rows.map((row) => row.line);
      const input = {
        source: 'csv' as const,
        dryRun: dryRun || errors.length > 0 || rows.length === 0,
        rows: rows.map(({ line, ...row }) => ({ ...row, confirmed: confirmLines.includes(line) })),
      };
      if (rows.length === 0)
        return reply.status(dryRun ? 200 : 400).send(
          dryRun
            ? ok(
                { dryRun: true, publication: null, rates: [], issues: [], lines, unparsed: errors },
                'Nothing to publish.',
              )
            : {
                message: 'The CSV has no rate to publish.',
                statusCode: 400,
                error: 'Bad Request',
                issues: [],
              },
        );
      try {
        const result = await services.desk.publish(input, request.admin!.id);
        if (!dryRun && errors.length > 0)
          return reply.status(400).send({
            message: `${errors.length} line(s) could not be read (line ${errors.map((e) => e.line).join(', ')}). Nothing was published.`,
            statusCode: 400,
            error: 'Bad Request',
            issues: result.issues,
          });
        if (result.dryRun)
          return ok({ ...result, lines, unparsed: errors }, 'Dry run: nothing was published.');
        return reply
          .status(201)
          .send(ok({ ...result, lines, unparsed: errors }, `${result.rates.length} rates published.`));
      } catch (err) {
        if (err instanceof PublicationRefusedError) return reply.status(400).send(refused(err));
        throw err;
      }
    },
  );
};
