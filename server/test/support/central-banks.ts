// A local fake of the four central banks' endpoints, answering the shapes recorded in
// ../shared/providers/central-banks.md, quirks included: CBN's name variants and whole-history array, CBK's JSON
// served as text/html with escaped dates and crosses that run the other way, SARB's per-series arrays newest first
// with the Canadian dollar quoted per rand and empty or zero values, and BoG's page that may be a captcha.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export type BankMode = 'normal' | 'down' | 'holiday' | 'captcha' | 'hang';

export interface FakeCentralBanks {
  /** The OFFICIAL_*_URL settings pointing here. */
  env: Record<string, string>;
  modes: Record<'cbn' | 'cbk' | 'sarb' | 'bog', BankMode>;
  /** Requests seen, as `METHOD path` (with the body for POSTs). */
  requests: string[];
  close(): Promise<void>;
}

const CBN_ROWS = [
  {
    id: 1,
    currency: 'US DOLLAR',
    ratedate: '2001-12-10',
    buyingrate: '112.9500',
    centralrate: '113.4500',
    sellingrate: '113.9500',
  },
  {
    id: 61870,
    currency: ' US DOLLAR ',
    ratedate: '2026-03-26',
    buyingrate: '1530.1000',
    centralrate: '1530.6000',
    sellingrate: '1531.1000',
  },
  {
    id: 61871,
    currency: 'POUND STERLING',
    ratedate: '2026-03-26',
    buyingrate: '2040.0000',
    centralrate: '2041.0000',
    sellingrate: '2042.0000',
  },
  {
    id: 61872,
    currency: 'EURO',
    ratedate: '2026-03-26',
    buyingrate: '1589.6201',
    centralrate: '1590.1997',
    sellingrate: '1590.7793',
  },
  {
    id: 61873,
    currency: 'YEN',
    ratedate: '2026-03-26',
    buyingrate: '10.1000',
    centralrate: '10.2000',
    sellingrate: '10.3000',
  },
  {
    id: 61874,
    currency: 'us dollar',
    ratedate: '2026-03-27',
    buyingrate: '1532.0000',
    centralrate: '1532.5000',
    sellingrate: '1533.0000',
  },
  {
    id: 61875,
    currency: 'POUNDS  STERLING',
    ratedate: '2026-03-27',
    buyingrate: '2044.0000',
    centralrate: '2045.0000',
    sellingrate: '2046.0000',
  },
  {
    id: 61876,
    currency: 'EURO',
    ratedate: '2026-03-27',
    buyingrate: '1591.0000',
    centralrate: '1591.5000',
    sellingrate: '1592.0000',
  },
  {
    id: 61877,
    currency: 'CFA',
    ratedate: '2026-03-27',
    buyingrate: '2.4000',
    centralrate: '2.4100',
    sellingrate: '2.4200',
  },
  {
    id: 61878,
    currency: 'YUAN/RENMINBI',
    ratedate: '2026-03-27',
    buyingrate: '210.0000',
    centralrate: '210.5000',
    sellingrate: '211.0000',
  },
];

// As the bank serves it: slashes escaped inside the JSON strings.
const CBK_BODY = `{"draw":1,"recordsTotal":"11550","recordsFiltered":"11550","data":[${[
  ['26/03/2026', 'US DOLLAR', '129.2500'],
  ['26/03/2026', 'STG POUND', '172.1000'],
  ['26/03/2026', 'EURO', '140.3000'],
  ['26/03/2026', 'CAN $', '94.1000'],
  ['26/03/2026', 'KES / USHS', '28.6000'],
  ['27/03/2026', 'US DOLLAR', '129.3012'],
  ['27/03/2026', 'STG POUND', '172.2000'],
  ['27/03/2026', 'EURO', '140.4000'],
  ['27/03/2026', 'CAN DOLLAR', '94.2000'],
  ['27/03/2026', 'KES / TSHS', '20.1000'],
  ['05/01/2024', 'US DOLLAR', '157.9012'],
]
  .map((row) => JSON.stringify(row).replace(/\//g, '\\/'))
  .join(',')}]}`;

const sarbObservation = (period: string, timeseries: string, value: number | null) => ({
  Period: `${period}T00:00:00`,
  Timeseries: timeseries,
  Description: "Weighted average of the banks' daily rates at approximately 10:30 am.",
  Value: value,
  FormatNumber: '0.0000',
  FormatDate: 'yyyy-MM-dd',
});

const SARB_SERIES: Record<string, { name: string; values: Record<string, number | null> }> = {
  EXCX135D: {
    name: 'Rand per US Dollar',
    values: { '2026-03-27': 17.1302, '2026-03-26': 17.2001, '2026-03-25': 0 },
  },
  EXCZ001D: { name: 'Rand per British Pound', values: { '2026-03-27': 22.9, '2026-03-26': 22.95 } },
  EXCZ002D: { name: 'Rand per Euro', values: { '2026-03-27': 18.61, '2026-03-26': null } },
  EXCB031D: { name: 'Canada: Dollar per Rand', values: { '2026-03-27': 0.0808, '2026-03-26': 0.0806 } },
};

const BOG_TABLE = `<!doctype html><html><body><h1>Daily interbank FX rates</h1>
<table class="table"><thead><tr><th>Date</th><th>Currency</th><th>Buying</th><th>Selling</th><th>Mid Rate</th></tr></thead>
<tbody>
<tr><td>27/03/2026</td><td>USDGHS</td><td>10.9500</td><td>10.9610</td><td>10.9555</td></tr>
<tr><td>27/03/2026</td><td>GBPGHS</td><td>14.6000</td><td>14.6200</td><td>14.6100</td></tr>
<tr><td>27/03/2026</td><td>EURGHS</td><td>11.8500</td><td>11.8600</td><td>11.8550</td></tr>
<tr><td>27/03/2026</td><td>CHFGHS</td><td>12.1000</td><td>12.1200</td><td>12.1100</td></tr>
</tbody></table></body></html>`;

const BOG_CAPTCHA = `<!doctype html><html><head><title>Just a moment...</title></head><body>
<form id="challenge-form"><div class="g-recaptcha" data-sitekey="x"></div><p>Please verify you are a human.</p></form>
</body></html>`;

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

export async function startFakeCentralBanks(): Promise<FakeCentralBanks> {
  const modes: FakeCentralBanks['modes'] = { cbn: 'normal', cbk: 'normal', sarb: 'normal', bog: 'normal' };
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = await bodyOf(req);
      requests.push(`${req.method} ${url.pathname}${url.search}${body ? ` ${body}` : ''}`);
      const bank = url.pathname.split('/')[1] as keyof typeof modes;
      const mode = modes[bank];
      if (mode === 'hang') return; // never answers
      if (mode === 'down') {
        res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
        return;
      }
      const json = (value: unknown, type = 'application/json') =>
        res
          .writeHead(200, { 'content-type': type })
          .end(typeof value === 'string' ? value : JSON.stringify(value));
      if (bank === 'cbn' && req.method === 'GET' && url.pathname === '/cbn/api/GetAllExchangeRates') {
        return json(mode === 'holiday' ? CBN_ROWS.filter((r) => r.ratedate < '2026-03-26') : CBN_ROWS);
      }
      if (
        bank === 'cbk' &&
        req.method === 'POST' &&
        url.pathname === '/cbk/wp-admin/admin-ajax.php' &&
        url.searchParams.get('action') === 'get_wdtable' &&
        body === 'draw=1&start=0&length=-1'
      ) {
        return json(
          mode === 'holiday' ? '{"draw":1,"recordsTotal":"0","recordsFiltered":"0","data":[]}' : CBK_BODY,
          'text/html; charset=UTF-8',
        );
      }
      const sarb = /^\/sarb\/([A-Z0-9]+)\/(\d{4}-\d{2}-\d{2})T00:00:00\/(\d{4}-\d{2}-\d{2})T00:00:00$/.exec(
        url.pathname,
      );
      if (bank === 'sarb' && sarb && SARB_SERIES[sarb[1]!]) {
        const { name, values } = SARB_SERIES[sarb[1]!]!;
        const [from, to] = [sarb[2]!, sarb[3]!];
        const rows = Object.entries(values)
          .filter(([day]) => mode !== 'holiday' && day >= from && day <= to)
          .sort(([a], [b]) => b.localeCompare(a))
          .map(([day, value]) => sarbObservation(day, name, value));
        return json(rows);
      }
      if (bank === 'bog' && req.method === 'GET') {
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(mode === 'captcha' ? BOG_CAPTCHA : BOG_TABLE);
      }
      res.writeHead(404).end('not found');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  return {
    env: {
      OFFICIAL_CBN_URL: `${base}/cbn/api/GetAllExchangeRates`,
      OFFICIAL_CBK_URL: `${base}/cbk/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193`,
      OFFICIAL_SARB_URL: `${base}/sarb`,
      OFFICIAL_BOG_URL: `${base}/bog/treasury-and-the-markets/daily-interbank-fx-rates/`,
      OFFICIAL_SOURCE_TIMEOUT_MS: '3000',
      // The queued import reads back from today: far enough to reach the fake's days in March 2026.
      OFFICIAL_IMPORT_DAYS: '400',
    },
    modes,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
