// How services put work on the queue: a leaf module, so that services never import services.ts that composes them.
import type { JobData, JobName } from './job-types';
import type { EnqueueOptions } from './queue';

export type Enqueue = <N extends JobName>(
  name: N,
  data: JobData<N>,
  options?: EnqueueOptions,
) => Promise<void>;
