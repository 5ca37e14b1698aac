// The Webhooks section of the API documentation (/docs): what is sent, and how a receiver checks the signature.
export const webhooksGuide = `Be told when a rate moves instead of polling. Register an endpoint per app (an active plan is
needed) for \`rate.updated\` (a publication with new rates of the pairs and markets you chose, all of them in one
delivery; none chosen means all), \`rate.threshold\` (a pair's buy or sell price crossed a level, up or down: once
per crossing) and \`rate.corrected\` (a published rate was corrected: the old and new values and the reason).

Each delivery is a \`POST\` with a JSON body \`{ "id", "type", "createdAt", "data" }\` (the \`webhooks\` section of
the OpenAPI document types each event; \`rate.updated\` carries the rate as \`/v1/rates\` answers it, with mid, spread
and change) and these headers: \`AfroFX-Event\`, \`AfroFX-Delivery\` (the delivery id, equal to the body's \`id\`: the
same on every retry, and a delivery may arrive more than once, so **deduplicate on it**) and
\`AfroFX-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with your endpoint's secret>\` (Stripe's
scheme: \`stripe.webhooks.constructEvent\` verifies it; it is not the Standard Webhooks scheme).
Answer with any \`2xx\` within 10 seconds. Anything else is retried with exponential backoff for 24 hours; every
attempt shows in the delivery log. Redirects are not followed.

Rotating the secret keeps the old one valid for 24 hours: meanwhile each delivery carries two \`v1=\` signatures, one
per secret, so accept the header when any \`v1\` matches. Endpoints are managed with the developer console's session or
with the app's private key (\`Authorization: Bearer sk_…\`); \`@afrofx/sdk\` has \`verifyWebhook\`.

Verify the signature on the raw body, before parsing it, and refuse old timestamps:

\`\`\`javascript
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyAfroFx(rawBody, header, secret, toleranceSeconds = 300) {
  const items = header.split(',').map((kv) => kv.split('='));
  const t = items.find(([key]) => key === 't')?.[1];
  const expected = Buffer.from(createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex'), 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= toleranceSeconds;
  return fresh && items.some(([key, value]) =>
    key === 'v1' && value?.length === 64 && timingSafeEqual(Buffer.from(value, 'hex'), expected));
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
    items = [item.split("=", 1) for item in header.split(",")]
    t = next(value for key, value in items if key == "t")
    expected = hmac.new(secret.encode(), t.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    fresh = abs(time.time() - int(t)) <= tolerance_seconds
    return fresh and any(key == "v1" and hmac.compare_digest(expected, value) for key, value in items)

# Flask: verify_afrofx(request.get_data(), request.headers["AfroFX-Signature"], os.environ["AFROFX_WHSEC"])
\`\`\``;
