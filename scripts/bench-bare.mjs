// The baseline for `npm run bench`: a bare Fastify route serving the same rates JSON from memory.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = JSON.parse(readFileSync(process.env.BENCH_BODY_FILE, 'utf8'));
const app = Fastify({ logger: false });
app.get('/v1/rates', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
