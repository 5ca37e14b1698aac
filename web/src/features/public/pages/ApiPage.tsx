import { Link } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CodeWindow } from '../../../components/CodeWindow';
import { ExternalLink } from '../../../components/ExternalLink';
import { API_DOCS_URL } from '../../../lib/links';
import { usePageOrigin } from '../../../lib/page-clock';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PlansGrid } from '../../../components/PlansGrid';
import { useFetchPlansQuery } from '../public-api';
import { paths } from '../../../lib/paths';

const features = [
  {
    title: 'Every market',
    body: 'Bank, cash and transfer rates for NGN, KES, ZAR and GHS against USD, EUR, GBP and CAD.',
  },
  {
    title: 'History, candles and conversion',
    body: 'Daily history and day, week or month candles for any pair, as JSON, CSV or NDJSON, and a convert endpoint that applies the buy or sell side for you.',
  },
  {
    title: 'Built for production',
    body: 'Rate-limit headers, ETag caching and a request log with analytics in your developer dashboard.',
  },
];

/** The example runs as printed: the site's own address, not a relative path curl cannot resolve. */
const sampleRequest = (origin: string) => `curl "${origin}/v1/rates?market=bank&base=naira" \\
  -H "Authorization: Bearer $AFROFX_KEY"`;

/** One quote as GET /v1/rates answers it today (the Quote contract in shared/). */
const sampleResponse = `{
  "data": [
    {
      "_id": "0f6e2a3c-5b1d-4c8e-9a7f-2d4b6c8e0a1f",
      "market": "bank",
      "asset": "dollar",
      "base": "naira",
      "buy": 1500.5,
      "sell": 1510.25,
      "createdAt": "2026-11-24T07:00:00.000Z",
      "updatedAt": "2026-11-24T07:00:00.000Z",
      "source": "desk",
      "publishedAt": "2026-11-24T07:00:00.000Z",
      "publicationId": "6a1d9e4b-2c7f-4e3a-8b5d-1f0c9a7e3d2b",
      "revision": 0,
      "mid": 1505.375,
      "spread": 9.75,
      "spreadPct": 0.6477,
      "change": 5.375,
      "changePct": 0.3583,
      "ageSeconds": 3600,
      "stale": false,
      "official": {
        "source": "cbn",
        "date": "2026-11-23",
        "mid": 1498.7601,
        "buy": 1498.2601,
        "sell": 1499.2601,
        "attribution": "Source: Central Bank of Nigeria"
      }
    }
  ],
  "message": "Rates fetched."
}`;

export function ApiPage() {
  useDocumentTitle('Forex API');
  const { data, isLoading, error, refetch } = useFetchPlansQuery(1);
  const origin = usePageOrigin();

  return (
    <>
      <section className="border-b border-slate-200 bg-white">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:py-24">
          <div>
            <p className="text-sm font-semibold tracking-wide text-gold-700 uppercase">AfroFX Forex API</p>
            <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-balance text-brand-950 sm:text-5xl">
              African exchange rates, as clean JSON.
            </h1>
            <p className="mt-5 text-lg leading-8 text-slate-600">
              Put the naira, shilling, rand and cedi rates that millions check every day into your app, your
              spreadsheet or your pricing engine — with one authenticated request.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to={paths.developer.signup} className={buttonClasses('primary', 'lg')}>
                Get started
              </Link>
              <ExternalLink href={API_DOCS_URL} className={buttonClasses('secondary', 'lg')}>
                View Documentation
              </ExternalLink>
            </div>
          </div>
          <CodeWindow title="Example request" className="shadow-2xl shadow-brand-950/20">
            <span className="text-gold-200">{sampleRequest(origin)}</span>
            {'\n\n'}
            <span className="text-brand-100/80">{sampleResponse}</span>
          </CodeWindow>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <ul className="grid gap-6 md:grid-cols-3">
          {features.map((feature) => (
            <li key={feature.title}>
              <Card className="h-full p-6">
                <span className="mb-4 block h-1 w-10 rounded-full bg-gold-400" aria-hidden="true" />
                <h2 className="font-semibold text-slate-900">{feature.title}</h2>
                <p className="mt-2 text-sm leading-6 text-slate-600">{feature.body}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section className="mx-auto max-w-6xl px-4 pb-20 sm:px-6" aria-labelledby="plans-heading">
        <div className="mb-10 max-w-2xl">
          <h2 id="plans-heading" className="text-3xl font-bold tracking-tight text-brand-950">
            Simple yearly plans
          </h2>
          <p className="mt-3 text-slate-600">
            Priced in dollars per year with a monthly request quota. Pay by card in USD or NGN.
          </p>
        </div>
        <PlansGrid
          plans={data?.data}
          isLoading={isLoading}
          error={error ? errorMessage(error) : null}
          onRetry={refetch}
          action={() => (
            <Link to={paths.developer.signup} className={buttonClasses('primary', 'md', 'w-full')}>
              Get started
            </Link>
          )}
        />
      </section>
    </>
  );
}
