// Imported first by main.ts, before any request is served. Under load V8 decided that the paid API's per-request
// objects live long (some do, until the next request-log write) and began allocating them straight in the old
// generation ("allocation-site pretenuring"). Every young object they point at then outlives its request: each
// minor GC copied and promoted whole requests and took 7-10 ms instead of 1-3, which was most of the paid p99 above
// bare Fastify on `npm run bench`. Without pretenuring, short-lived objects die young, as they should here.
import v8 from 'node:v8';

v8.setFlagsFromString('--no-allocation-site-pretenuring');
