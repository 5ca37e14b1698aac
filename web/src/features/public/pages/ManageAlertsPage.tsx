import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  BASES,
  formatNumber,
  MARKET_LABELS,
  MARKETS,
  type Base,
  type Market,
  type RateAlert,
} from '@afrofx/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Checkbox } from '../../../components/Checkbox';
import { ErrorState } from '../../../components/ErrorState';
import { Spinner } from '../../../components/Spinner';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  useFetchAlertsQuery,
  usePauseAlertMutation,
  useRemoveAlertMutation,
  useSaveDailyPreferencesMutation,
} from '../alerts-api';

function describe(alert: RateAlert): string {
  const pair = `${ASSET_DISPLAY[alert.asset].code}/${BASE_DISPLAY[alert.base].code}`;
  const what = `${pair} ${MARKET_LABELS[alert.market]} ${alert.side} rate`;
  return alert.condition === 'move'
    ? `${what} moves more than ${formatNumber(alert.level)} %`
    : `${what} ${alert.condition === 'above' ? 'rises above' : 'falls below'} ${BASE_DISPLAY[alert.base].symbol}${formatNumber(alert.level)}`;
}

const toggled = <T,>(list: T[], value: T) =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

function DailyPreferences({ token, bases, markets }: { token: string; bases: Base[]; markets: Market[] }) {
  const [save, { isLoading }] = useSaveDailyPreferencesMutation();
  const [chosen, setChosen] = useState({ bases, markets });
  return (
    <Card className="mt-6 p-6">
      <h2 className="text-lg font-bold text-slate-900">Your daily rates e-mail</h2>
      <p className="mt-1 text-sm text-slate-600">Choose what it holds; nothing ticked means everything.</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <fieldset>
          <legend className="text-sm font-semibold text-slate-700">Bases</legend>
          {BASES.map((base) => (
            <Checkbox
              key={base}
              label={BASE_DISPLAY[base].code}
              checked={chosen.bases.includes(base)}
              onChange={() => setChosen((c) => ({ ...c, bases: toggled(c.bases, base) }))}
            />
          ))}
        </fieldset>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-700">Markets</legend>
          {MARKETS.map((market) => (
            <Checkbox
              key={market}
              label={MARKET_LABELS[market]}
              checked={chosen.markets.includes(market)}
              onChange={() => setChosen((c) => ({ ...c, markets: toggled(c.markets, market) }))}
            />
          ))}
        </fieldset>
      </div>
      <Button
        className="mt-4"
        isLoading={isLoading}
        onClick={async () => {
          const result = await save({ token, ...chosen });
          if (result.data) showToast(result.data.message, 'success');
        }}
      >
        Save preferences
      </Button>
    </Card>
  );
}

/** The signed manage link of alert mails: the address's alerts, each paused, resumed or removed here. */
export function ManageAlertsPage() {
  useDocumentTitle('Your rate alerts');
  const { token = '' } = useParams();
  const { data, error, isLoading, refetch } = useFetchAlertsQuery(token);
  const [pause] = usePauseAlertMutation();
  const [remove] = useRemoveAlertMutation();

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight text-brand-950">Your rate alerts</h1>
      {isLoading ? (
        <Spinner label="Loading your alerts" className="mt-8 text-brand-600" />
      ) : error ? (
        <ErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : (
        data && (
          <>
            <p className="mt-2 text-slate-600">
              For {data.email}. An alert mails once per crossing of its line.
            </p>
            <Card className="mt-6 p-6">
              {data.alerts.length === 0 ? (
                <p className="text-slate-600">You have no alerts.</p>
              ) : (
                <ul className="divide-y divide-slate-100" aria-label="Alerts">
                  {data.alerts.map((alert) => (
                    <li key={alert._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                      <span className="text-sm text-slate-800">
                        {describe(alert)}
                        {!alert.confirmed && <span className="ml-2 text-slate-500">(not confirmed)</span>}
                        {alert.paused && <span className="ml-2 text-slate-500">(paused)</span>}
                      </span>
                      <span className="flex gap-2">
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={() => void pause({ token, id: alert._id, paused: !alert.paused })}
                        >
                          {alert.paused ? 'Resume' : 'Pause'}
                        </Button>
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={async () => {
                            const result = await remove({ token, id: alert._id });
                            if (result.data) showToast(result.data.message, 'success');
                          }}
                        >
                          Remove
                        </Button>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            {data.daily && (
              <DailyPreferences token={token} bases={data.daily.bases} markets={data.daily.markets} />
            )}
          </>
        )
      )}
    </div>
  );
}
