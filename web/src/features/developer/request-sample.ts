/** A first paid API call, as a shell command against this site. */
export function requestSample(origin: string): string {
  return `curl -G "${origin}/v1/rates" \\
  -d market=bank -d base=naira \\
  -H "Authorization: Bearer <your private key>"`;
}
