import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JobRun, JobRunQuery, PagedEnvelope } from '@afrofx/shared';
import { paged, pageOf } from '../../http';
import type { JobRunsService } from './job-runs.service';

/** What app.ts hands these routes. */
export interface JobRunsRoutesOptions {
  services: { jobRuns: JobRunsService };
}

export const jobRunsRoutes: FastifyPluginAsyncTypebox<JobRunsRoutesOptions> = async (app, { services }) => {
  app.get(
    '/admin/job_runs',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['Admin'],
        security: [{ bearerAuth: [] }],
        summary: 'Runs of the admin jobs (rates mail, CSV export, tweet), newest first',
        querystring: JobRunQuery,
        response: { 200: PagedEnvelope(JobRun) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.jobRuns.list(request.query.name, page);
      return paged(page, rows, count, 'Job runs fetched.');
    },
  );
};
