import { BASE_DISPLAY, BASES, pairName, pairPath, type Base, type Market, type Pair } from '@afrofx/shared';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ExternalLink } from '../../../components/ExternalLink';
import { useTelegramBotUrl } from '../../../api/site-api';
import { AlertForm } from '../components/AlertForm';
import { TWITTER_BOT_URL } from '../../../lib/links';
import { usePageClock } from '../../../lib/page-clock';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { OfficialRateLine } from '../components/OfficialRateLine';
import { comparedMarket, PremiumLine } from '../components/PremiumLine';
import { RatesBoard } from '../components/RatesBoard';
import { MarketsExplained, RatesHeadline } from '../components/RatesHeadline';
import { RatesTable } from '../components/RatesTable';
import { SubscribeForm } from '../components/SubscribeForm';
import { useFetchRatesQuery } from '../public-api';
import { shownRates } from '../shown-rates';

function MarketRates({ market, base, pair }: { market: Market; base: Base; pair?: Pair }) {
  // `currentData` rather than `data`: while another market loads, the previous market's rates must not show.
  const { currentData, isFetching, error, refetch } = useFetchRatesQuery(market);
  // The premium line compares with the bank market (and, on the bank tab, the cash market): RTK Query shares these
  // calls with the tabs, so switching tabs asks for nothing twice.
  const compared = useFetchRatesQuery(comparedMarket(market), { skip: comparedMarket(market) === market });
  const bank = useFetchRatesQuery('bank', { skip: market === 'bank' });
  const isLoading = !currentData && isFetching;
  const { now, timeZone } = usePageClock();
  return (
    <>
      <div className="space-y-3 px-3 pb-4 sm:px-0">
        {!error && (
          <RatesHeadline
            market={market}
            base={base}
            asset={pair?.asset}
            rates={shownRates(currentData, base, now, timeZone)}
            isLoading={isLoading}
          />
        )}
        <MarketsExplained />
      </div>
      <RatesTable
        base={base}
        rates={currentData}
        isLoading={isLoading}
        error={error ? errorMessage(error) : null}
        onRetry={refetch}
        now={now}
        pair={pair}
      />
      <PremiumLine
        market={market}
        base={base}
        marketRates={comparedMarket(market) === market ? currentData : compared.currentData}
        bankRates={market === 'bank' ? currentData : bank.currentData}
      />
    </>
  );
}

/** The Telegram card shows only while the bot runs: the site promises only what runs. */
function useChannels() {
  const telegram = useTelegramBotUrl();
  return [
    ...(telegram
      ? [
          {
            title: 'Telegram bot',
            body: 'Ask the bot for the rate of the moment, any time of day.',
            href: telegram,
            cta: 'Open in Telegram',
          },
        ]
      : []),
    {
      title: 'Twitter updates',
      body: 'A daily post with the Bank, Cash and Transfer rates.',
      href: TWITTER_BOT_URL,
      cta: 'Follow on Twitter',
    },
  ];
}

/** The home page, or a pair's page (/rates/naira/dollar): the same board, opened on the pair's base currency. */
export function HomePage({ pair }: { pair?: Pair }) {
  const heading = pair ? `${pairName(pair)} today` : 'Today’s exchange rates';
  useDocumentTitle(heading);
  const navigate = useNavigate();
  // On a pair's page another base is another pair: its own URL, heading and rates.
  const moveToBase = pair ? (base: Base) => void navigate(pairPath({ base, asset: pair.asset })) : undefined;
  const channels = useChannels();

  return (
    <>
      {/* The rates come first; a visitor on a phone sees the dollar and the USD row without scrolling. */}
      <section className="bg-brand-950 pb-16 text-white sm:pb-20">
        <div className="mx-auto flex max-w-6xl flex-wrap items-baseline justify-between gap-x-6 gap-y-1 px-4 pt-4 sm:px-6 sm:pt-8">
          <h1 className="text-xl font-extrabold tracking-tight sm:text-3xl">{heading}</h1>
          <p className="hidden text-sm text-brand-100/85 sm:block">
            Naira, Kenyan shilling, rand and cedi, updated every day.
          </p>
        </div>
      </section>

      <div className="relative mx-auto -mt-12 max-w-6xl px-4 sm:-mt-14 sm:px-6">
        <Card className="p-3 shadow-xl shadow-brand-950/10 sm:p-6">
          <h2 className="sr-only">Rates</h2>
          <RatesBoard initialBase={pair?.base} onBaseChange={moveToBase}>
            {(selection) => (
              <>
                <div className="-mx-3 sm:mx-0">
                  <MarketRates {...selection} pair={pair} />
                </div>
                {pair && <OfficialRateLine pair={pair} />}
                <Link
                  to={`/rate_history?market=${selection.market}&base=${selection.base}`}
                  className="mt-4 inline-block text-sm font-semibold text-brand-700 hover:text-brand-900"
                >
                  See the rate history charts →
                </Link>
              </>
            )}
          </RatesBoard>
        </Card>
      </div>

      <div className="mx-auto mt-12 max-w-6xl px-4 sm:mt-16 sm:px-6">
        <section className="relative overflow-hidden rounded-2xl bg-brand-950 px-6 py-10 text-white sm:rounded-3xl sm:px-10 sm:py-14">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(232,177,58,0.22),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgba(36,148,104,0.35),transparent_60%)]"
          />
          <div aria-hidden="true" className="absolute top-10 right-10 hidden grid-cols-2 gap-4 lg:grid">
            {BASES.map((base, index) => (
              <div
                key={base}
                className={`flex size-24 flex-col items-center justify-center rounded-2xl bg-white/5 ring-1 ring-white/10 ${index % 2 ? 'translate-y-8' : ''}`}
              >
                <span className="text-3xl font-bold text-gold-300">{BASE_DISPLAY[base].symbol}</span>
                <span className="mt-1 text-xs font-semibold tracking-[0.2em] text-brand-200/70">
                  {BASE_DISPLAY[base].code}
                </span>
              </div>
            ))}
          </div>
          <div className="relative max-w-2xl">
            <h2 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
              Know today’s rate before you <span className="text-gold-300">change money</span>.
            </h2>
            <p className="mt-4 text-lg leading-8 text-brand-100/85">
              Bank, cash and transfer rates for the naira, Kenyan shilling, rand and cedi against the dollar,
              euro, pound and Canadian dollar.
            </p>
            <div className="mt-7 flex flex-wrap gap-3">
              <Link to="/rate_calculator" className={buttonClasses('accent', 'lg')}>
                Open the rate calculator
              </Link>
              <Link to="/api" className={buttonClasses('inverse', 'lg')}>
                Rates API for developers
              </Link>
            </div>
          </div>
        </section>
      </div>

      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-16 sm:px-6 lg:grid-cols-[3fr_2fr]">
        <Card className="p-6 sm:p-8">
          <h2 className="text-2xl font-bold tracking-tight text-slate-900">Get the rates in your inbox</h2>
          <p className="mt-2 text-slate-600">
            One short e-mail every morning with the day’s Bank, Cash and Transfer rates. Confirm your address
            from the link we send you and you’re set.
          </p>
          <div className="mt-6">
            <SubscribeForm />
          </div>
          <ul className="mt-5 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-500">
            {['Free', 'One e-mail a day', 'All four currencies'].map((point) => (
              <li key={point} className="flex items-center gap-2">
                <span className="size-1.5 rounded-full bg-gold-400" aria-hidden="true" />
                {point}
              </li>
            ))}
          </ul>
        </Card>
        <div className="grid gap-4">
          {channels.map((channel) => (
            <Card key={channel.title} className="flex flex-col p-6">
              <h2 className="font-semibold text-slate-900">{channel.title}</h2>
              <p className="mt-1 flex-1 text-sm text-slate-600">{channel.body}</p>
              <ExternalLink
                href={channel.href}
                className="mt-3 text-sm font-semibold text-brand-700 hover:text-brand-900"
              >
                {channel.cta} →
              </ExternalLink>
            </Card>
          ))}
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <Card className="p-6 sm:p-8">
          <h2 className="text-2xl font-bold tracking-tight text-slate-900">
            Get an alert when a rate crosses your line
          </h2>
          <p className="mt-2 text-slate-600">
            One e-mail when the rate crosses it, not one a day. Confirm from the link we send you; every alert
            mail has a link to pause or remove it.
          </p>
          <div className="mt-6">
            <AlertForm asset={pair?.asset} base={pair?.base} />
          </div>
        </Card>
      </section>
    </>
  );
}
