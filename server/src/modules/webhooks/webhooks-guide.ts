// The Webhooks section of the API documentation (/docs): what is sent, and how a receiver checks the signature.
export const webhooksGuide = `Be told when a rate moves instead of polling. Register an endpoint per app (an active plan is
needed) for \`rate.updated\` (a new rate of the pairs and markets you chose; none chosen means all) and
\`rate.threshold\` (a pair's buy or sell price crossed a level, up or down: once per crossing).

Each delivery is a \`POST\` with a JSON body \`{ "id", "type", "createdAt", "data" }\` and these headers:
\`AfroFX-Event\`, \`AfroFX-Delivery\` (the event id: the same on every retry, so you can skip repeats) and
\`AfroFX-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with your endpoint's secret>\`.
Answer with any \`2xx\` within 10 seconds. Anything else is retried with exponential backoff for 24 hours; every
attempt shows in the delivery log. Redirects are not followed.

Verify the signature on the raw body, before parsing it, and refuse old timestamps:

\`\`\`javascript
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyAfroFx(rawBody, header, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=')));
  const expected = createHmac('sha256', secret).update(\`\${parts.t}.\${rawBody}\`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= toleranceSeconds;
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return fresh && given.length === 32 && timingSafeEqual(given, Buffer.from(expected, 'hex'));
}
// Express: app.post('/afrofx', express.raw({ type: 'application/json' }), (req, res) => {
//   if (!verifyAfroFx(req.body.toString('utf8'), req.get('AfroFX-Signature'), process.env.AFROFX_WHSEC))
//     return res.sendStatus(400);
//   res.sendStatus(204);
// });
\`\`\`

\`\`\`python
import hashlib, hmac, time

def verify_afrofx(raw_body: bytes, header: str, secret: str, tolerance_seconds: int = 300) -> bool:
    parts = dict(item.split("=", 1) for item in header.split(","))
    signed = parts["t"].encode() + b"." + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    fresh = abs(time.time() - int(parts["t"])) <= tolerance_seconds
    return fresh and hmac.compare_digest(expected, parts.get("v1", ""))

# Flask: verify_afrofx(request.get_data(), request.headers["AfroFX-Signature"], os.environ["AFROFX_WHSEC"])
\`\`\``;
