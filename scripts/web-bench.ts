// `npm run bench:web`: what a visitor of `/` waits for, on the built app. Starts the built server
// on a free port (as the e2e run does) and drives Chromium: the JavaScript `/` loads, compressed as sent, and the
// time from navigation to the first rate row on screen, median of cold loads (a fresh browser context each, so
// nothing is cached), on loopback and on a throttled phone profile; then the throughput of `/` as the server renders
// it (from its cache) beside that of the static index.html. A script, not a test: it prints figures.
import autocannon from 'autocannon';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startBuiltServer } from './built-server.mjs';

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
// The first rate row comes with the HTML; the script only has to make the page interactive.
const TARGETS = { jsKb: 120, loopbackMs: 300, throttledMs: 1000, ssrThroughputRatio: 0.8 };
const THROUGHPUT = { connections: 10, durationS: 5, rounds: 3 };
// The phone profile of the issue: a 4× slower CPU on a 9 Mbit/s link with 60 ms of latency.
const PHONE = { cpuSlowdown: 4, bitsPerSecond: 9_000_000, latencyMs: 60 };
const RATES_CALL = '/v1/user/fetch_rates/';

interface Load {
  firstRowMs: number;
  jsBytes: number;
  ratesCalls: number;
}

/**
 * Runs in the page before its own scripts: notes the time (from navigation start) of the first frame in which a
 * row of a loaded rates table is laid out, in the frame after the DOM change, as close to the paint as a page sees.
 * A string, not a function: tsx would wrap a function's inner functions in helpers the page does not have.
 */
const WATCH_FIRST_RATE_ROW = `
  const rowShown = () =>
    Array.from(document.querySelectorAll('table:not([aria-busy]) tbody tr')).some(
      (row) => /USD/.test(row.textContent || '') && row.getBoundingClientRect().height > 0,
    );
  const observer = new MutationObserver(() => {
    if (!rowShown()) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      window.__firstRateRowMs = performance.now();
    });
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
`;

async function coldLoad(browser: Browser, baseUrl: string, throttled: boolean): Promise<Load> {
  const context = await browser.newContext(
    throttled
      ? { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  try {
    const page: Page = await context.newPage();
    await page.addInitScript(WATCH_FIRST_RATE_ROW);
    if (throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: PHONE.latencyMs,
        downloadThroughput: PHONE.bitsPerSecond / 8,
        uploadThroughput: PHONE.bitsPerSecond / 8,
      });
    }
    const scripts: Array<Promise<number>> = [];
    let ratesCalls = 0;
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script')
        scripts.push(request.sizes().then((sizes) => sizes.responseBodySize));
      if (request.url().includes(RATES_CALL)) ratesCalls += 1;
    });
    await page.goto(baseUrl + '/', { waitUntil: 'commit' });
    const firstRowMs = await (
      await page.waitForFunction(
        () => (globalThis as { __firstRateRowMs?: number }).__firstRateRowMs,
        undefined,
        { timeout: 30_000 },
      )
    ).jsonValue();
    await page.waitForLoadState('networkidle');
    const jsBytes = (await Promise.all(scripts)).reduce((sum, bytes) => sum + bytes, 0);
    return { firstRowMs: firstRowMs as number, jsBytes, ratesCalls };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Requests a second, as a browser asks (HTML, brotli): `/` rendered with the rates, and the static index.html that
 * `/` was before. Alternating rounds, so that a busy moment of the shared machine falls on both alike.
 */
async function throughput(baseUrl: string) {
  const headers = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' };
  const run = async (path: string) =>
    (
      await autocannon({
        url: baseUrl + path,
        headers,
        connections: THROUGHPUT.connections,
        duration: THROUGHPUT.durationS,
      })
    ).requests.average;
  // Warm both (the rendered page's cache, the static file's stat), not counted.
  await autocannon({ url: baseUrl + '/', headers, connections: 2, duration: 1 });
  await autocannon({ url: baseUrl + '/index.html', headers, connections: 2, duration: 1 });
  const rendered: number[] = [];
  const staticHtml: number[] = [];
  for (let round = 0; round < THROUGHPUT.rounds; round += 1) {
    staticHtml.push(await run('/index.html'));
    rendered.push(await run('/'));
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { rendered: mean(rendered), staticHtml: mean(staticHtml) };
}

const verdict = (ok: boolean) => (ok ? 'meets the target' : 'MISSES the target');

async function main() {
  const server = await startBuiltServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    // One warm-up load, not counted: the server's first answers pay for its own cold start.
    await coldLoad(browser, server.baseUrl, false);
    const results: Record<'loopback' | 'throttled', Load[]> = { loopback: [], throttled: [] };
    for (let i = 0; i < LOADS; i += 1) {
      results.loopback.push(await coldLoad(browser, server.baseUrl, false));
      results.throttled.push(await coldLoad(browser, server.baseUrl, true));
    }
    const jsKb = median(results.loopback.map((load) => load.jsBytes)) / 1000;
    const loopbackMs = median(results.loopback.map((load) => load.firstRowMs));
    const throttledMs = median(results.throttled.map((load) => load.firstRowMs));
    const ratesCalls = Math.max(
      ...[...results.loopback, ...results.throttled].map((load) => load.ratesCalls),
    );

    console.log(`\nweb bench: ${LOADS} cold loads of / per profile, Chromium, ${server.baseUrl}`);
    console.log(
      `  JS for / (compressed, as sent)         ${jsKb.toFixed(1)} kB   target ≤ ${TARGETS.jsKb} kB: ${verdict(jsKb <= TARGETS.jsKb)}`,
    );
    console.log(
      `  first rate row, loopback (median)      ${Math.round(loopbackMs)} ms   target ≤ ${TARGETS.loopbackMs} ms: ${verdict(loopbackMs <= TARGETS.loopbackMs)}`,
    );
    console.log(
      `  first rate row, 4× CPU, 9 Mbit/s, 60 ms ${Math.round(throttledMs)} ms   target ≤ ${TARGETS.throttledMs} ms: ${verdict(throttledMs <= TARGETS.throttledMs)}`,
    );
    console.log(
      `  rates calls per load                   ${ratesCalls} (none expected: the rates come with the page)`,
    );

    await browser.close();
    browser = undefined;
    const { rendered, staticHtml } = await throughput(server.baseUrl);
    const ratio = rendered / staticHtml;
    console.log(
      `\nthroughput, ${THROUGHPUT.connections} connections, ${THROUGHPUT.rounds} × ${THROUGHPUT.durationS} s each, alternating`,
    );
    console.log(`  static index.html                      ${Math.round(staticHtml)} req/s`);
    console.log(
      `  / rendered with the rates (cached)     ${Math.round(rendered)} req/s   ratio ${ratio.toFixed(2)}, target ≥ ${TARGETS.ssrThroughputRatio}: ${verdict(ratio >= TARGETS.ssrThroughputRatio)}`,
    );
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
