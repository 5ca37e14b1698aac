// The baselines for `npm run bench`: a bare Fastify route sending the bytes the paid GET /v1/rates sent, already
// serialised, with the same content type (bytes only: the ceiling of that path on this machine, no key, quota or
// log), and when BENCH_HEADERS names them, with every header the paid answer sent as well (the same contract:
// RateLimit fields, validators, CORS, Cache-Control, nosniff), so that what the paid path costs beyond its
// contract is the metering alone.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.BENCH_BODY_FILE);
const contentType = process.env.BENCH_CONTENT_TYPE ?? 'application/json; charset=utf-8';
const headers = process.env.BENCH_HEADERS ? JSON.parse(process.env.BENCH_HEADERS) : {};
const app = Fastify({ logger: false });
app.get('/v1/rates', (_request, reply) => reply.headers(headers).type(contentType).send(body));
// Exits on the bench's SIGTERM, so that a profile asked for with --cpu-prof is written.
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
