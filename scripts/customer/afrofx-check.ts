// What the switchers' scripts (oxr-style.ts, fixer-style.ts) check their figures against, as CI: AfroFX's own
// /v1/rates. Not what a customer writes: the calls in each script are that.

/** AfroFX's own bank mid of a pair (naira per dollar…), read the AfroFX way with the key in AFROFX_KEY. */
export async function ourMid(base: string, asset: string): Promise<number> {
  const res = await fetch(`${process.env.AFROFX_URL!}/v1/rates?market=bank&base=${base}&asset=${asset}`, {
    headers: { authorization: `Bearer ${process.env.AFROFX_KEY!}` },
  });
  const { data } = (await res.json()) as { data: Array<{ mid: number }> };
  return data[0]!.mid;
}

/** Fails unless `figure` is `expected` (to floating-point rounding); prints it when it is. */
export function same(name: string, figure: number | undefined, expected: number) {
  if (figure === undefined || Math.abs(figure - expected) > Math.abs(expected) * 1e-11)
    throw new Error(`${name}: ${figure} where ${expected} was expected`);
  console.log(`  ${name}: ${figure} ✓`);
}
