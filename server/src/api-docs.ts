// The paid API's quick-start, shown at the top of the interactive documentation (/docs).
export function apiQuickStart(baseUrl: string): string {
  return `Exchange rates for the naira, Kenyan shilling, rand and cedi against the dollar, euro, pound and Canadian dollar,
in three markets: \`bank\`, \`black_market_cash\` (Cash) and \`black_market_transfer\` (Transfer).

## Quick start
1. Create a developer account, activate it from the e-mail, and create an app.
2. On **API Keys**, generate a key pair. Copy the private key (\`sk_…\`): it is shown once.
3. Buy a plan for the app (or ask us to make your account a premium customer).
4. Send the private key as a bearer token:

\`\`\`bash
curl -H "Authorization: Bearer $AFROFX_KEY" "${baseUrl}/v1/rates?base=naira&market=bank"
\`\`\`

\`\`\`javascript
const res = await fetch('${baseUrl}/v1/rates?base=naira&market=bank', {
  headers: { Authorization: \`Bearer \${process.env.AFROFX_KEY}\` },
});
const { data } = await res.json();
console.log(data[0].asset, data[0].buy, data[0].sell, res.headers.get('RateLimit-Remaining'));
\`\`\`

\`\`\`python
import os, requests
res = requests.get("${baseUrl}/v1/rates", params={"base": "naira", "market": "bank"},
                   headers={"Authorization": f"Bearer {os.environ['AFROFX_KEY']}"})
res.raise_for_status()
for rate in res.json()["data"]:
    print(rate["asset"], rate["buy"], rate["sell"])
\`\`\`

## Quota and limits
Every 2xx answer counts once against your plan's monthly requests; a \`304 Not Modified\` and a refused request are free.
Each answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the monthly count resets).
At the limit the answer is \`429\` with \`Retry-After\`; an app without an active plan gets \`402\`; a bad or rotated key gets \`401\`.
Send the \`ETag\` of a rates answer back as \`If-None-Match\` to get a free \`304\` while nothing changed.

## Candles and exports
\`/v1/rates/ohlc\` answers open, high, low and close of buy and sell per day, ISO week or month, from every rate entry.
History and candles stream as CSV or NDJSON with \`format=csv\` / \`format=ndjson\` or the matching \`Accept\` header:

\`\`\`bash
curl -H "Authorization: Bearer $AFROFX_KEY" "${baseUrl}/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=week"
curl -H "Authorization: Bearer $AFROFX_KEY" -H "Accept: text/csv" -o history.csv \\
  "${baseUrl}/v1/rates/history?market=bank&base=naira&asset=dollar&from=2026-01-01&to=2026-06-30"
\`\`\`

## Errors
Every error is JSON: \`{ "message": "…", "statusCode": 400, "error": "Bad Request" }\`, and a \`400\` names the parameter at fault.`;
}

/** The brand mark and name for the header of the documentation page (the web app's favicon, with the name). */
export const docsLogo = {
  type: 'image/svg+xml',
  content: Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 150 32" width="150" height="32"><rect width="32" height="32" rx="8" fill="#0b3d2e"/><path d="M9 13h12l-3-3M23 19H11l3 3" fill="none" stroke="#e9b949" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/><text x="42" y="23" font-family="Arial, Helvetica, sans-serif" font-size="20" font-weight="700" fill="#ffffff">Afro<tspan fill="#e9b949">FX</tspan> API</text></svg>`,
  ),
  href: '/',
  target: '_self' as const,
};
