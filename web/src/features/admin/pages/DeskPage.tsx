import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  formatDateTime,
  formatNumber,
  MARKET_LABELS,
  MARKETS,
  OFFICIAL_SOURCE_ATTRIBUTION,
  RATE_BLOCK_COLUMNS,
  type PublicationRowIssue,
} from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchDeskQuery, useFetchRateStatusQuery, usePublishRatesMutation } from '../admin-api';
import { MarketDeadline } from '../components/MarketDeadline';
import { DeskSettingsForm } from '../components/DeskSettingsForm';
import {
  applyPaste,
  blocking,
  checkRow,
  emptyDesk,
  fromOfficial,
  officialFor,
  publicationRows,
  rowKey,
  sameAsLast,
  type DeskRow,
  type DeskState,
} from '../desk-board';

/** How long ago a figure was published, in the largest whole unit. */
function age(iso: string, now: number): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

const pairName = (row: DeskRow) =>
  `${ASSET_DISPLAY[row.asset].code}/${BASE_DISPLAY[row.base].code} ${MARKET_LABELS[row.market]}`;

export function DeskPage() {
  useDocumentTitle('Desk');
  const { data: board, isLoading } = useFetchDeskQuery();
  const { data: status } = useFetchRateStatusQuery();
  const [publish, publishState] = usePublishRatesMutation();
  const [state, setState] = useState<DeskState>(emptyDesk);
  const [serverIssues, setServerIssues] = useState<Record<string, PublicationRowIssue[]>>({});
  const [pasted, setPasted] = useState('');
  const [now] = useState(() => Date.now());

  if (isLoading || !board) return <p className="p-6 text-slate-600">Loading the desk…</p>;

  const rows = publicationRows(board, state);
  const stopped = board.rows.filter(
    (row) => blocking(checkRow(row, state, board), Boolean(state.confirmed[rowKey(row)])).length > 0,
  );

  const setCell = (row: DeskRow, side: 'buy' | 'sell', value: string) =>
    setState((s) => {
      const key = rowKey(row);
      const cells = s.cells[key] ?? { buy: '', sell: '' };
      return { ...s, cells: { ...s.cells, [key]: { ...cells, [side]: value } } };
    });

  const onPaste = (text: string) => {
    setPasted(text);
    setState((s) => applyPaste(s, board, text));
  };

  const submit = async () => {
    if (rows.length === 0) {
      showToast('Nothing to publish: type figures, paste a block or choose "Same as last".', 'error');
      return;
    }
    if (stopped.length > 0) {
      showToast(`${stopped.length} row(s) need a fix or a confirmation before publishing.`, 'error');
      document.getElementById(`desk-${rowKey(stopped[0]!)}-buy`)?.focus();
      return;
    }
    const result = await publish({ rows, source: 'desk' });
    if (!result.data) return;
    if ('issues' in result.data) {
      const byRow: Record<string, PublicationRowIssue[]> = {};
      for (const issue of result.data.issues) (byRow[rowKey(rows[issue.row]!)] ??= []).push(issue);
      setServerIssues(byRow);
      showToast(result.data.message, 'error');
      return;
    }
    showToast(result.data.message, 'success');
    setServerIssues({});
    setState(emptyDesk);
    setPasted('');
  };

  return (
    <>
      <PageHeader
        title="Desk"
        description="Every market, base and asset on one board. A cell left empty keeps the last figure; Publish sends every filled or “same as last” row as one publication."
      />
      <Card className="mb-6 p-4">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label htmlFor="desk-paste" className="block text-sm font-semibold text-slate-900">
            Paste from a spreadsheet
          </label>
          <p id="desk-paste-hint" className="mt-1 text-sm text-slate-600">
            One pair a line, columns <strong>{RATE_BLOCK_COLUMNS.join(', ')}</strong>, tab- or
            comma-separated, with or without a header row. Markets: bank, cash, transfer; bases and assets by
            name or code (NGN, USD).
          </p>
          <textarea
            id="desk-paste"
            aria-describedby="desk-paste-hint"
            className="mt-2 h-20 w-full rounded-md border border-slate-300 p-2 font-mono text-sm"
            value={pasted}
            onChange={(event) => onPaste(event.target.value)}
          />
          {state.strayLines.length > 0 && (
            <ul className="mt-2 text-sm text-red-700" aria-live="polite">
              {state.strayLines.map((line) => (
                <li key={line.line}>
                  Line {line.line} not read: {line.message}
                </li>
              ))}
            </ul>
          )}
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button
              type="button"
              variant="secondary"
              onClick={() => setState((s) => sameAsLast(s, board.rows))}
            >
              Same as last: whole board
            </Button>
            <Button type="submit" isLoading={publishState.isLoading}>
              {`Publish ${rows.length} rate${rows.length === 1 ? '' : 's'}`}
            </Button>
            <span className="text-sm text-slate-600" aria-live="polite">
              {stopped.length > 0
                ? `${stopped.length} row(s) need attention`
                : `${rows.length} of ${board.rows.length} rows ready`}
            </span>
          </div>
        </form>
      </Card>

      {MARKETS.map((market) => {
        const marketRows = board.rows.filter((row) => row.market === market);
        return (
          <Card key={market} className="mb-6 overflow-x-auto">
            <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
              <h2 className="text-lg font-semibold text-slate-900">{MARKET_LABELS[market]}</h2>
              <MarketDeadline
                status={status?.data.markets.find((m) => m.market === market)}
                timeZone={status?.data.timeZone}
              />
              <Button
                type="button"
                variant="secondary"
                size="sm"
                onClick={() => setState((s) => sameAsLast(s, marketRows))}
              >
                {`Same as last: ${MARKET_LABELS[market]}`}
              </Button>
            </div>
            <table className="w-full text-sm">
              <caption className="sr-only">{`${MARKET_LABELS[market]} market`}</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="p-2">
                    Pair
                  </th>
                  <th scope="col" className="p-2">
                    Last buy / sell
                  </th>
                  <th scope="col" className="p-2">
                    Official
                  </th>
                  <th scope="col" className="p-2">
                    Buy
                  </th>
                  <th scope="col" className="p-2">
                    Sell
                  </th>
                  <th scope="col" className="p-2">
                    <span className="sr-only">Row actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {marketRows.map((row) => (
                  <DeskLine
                    key={rowKey(row)}
                    row={row}
                    state={state}
                    now={now}
                    board={board}
                    serverIssues={serverIssues[rowKey(row)] ?? []}
                    onCell={(side, value) => setCell(row, side, value)}
                    onSame={() => setState((s) => sameAsLast(s, [row]))}
                    onOfficial={() => setState((s) => fromOfficial(s, row, board))}
                    onConfirm={(value) =>
                      setState((s) => ({ ...s, confirmed: { ...s.confirmed, [rowKey(row)]: value } }))
                    }
                  />
                ))}
              </tbody>
            </table>
          </Card>
        );
      })}
      <Card className="mb-6">
        <h2 className="border-b border-slate-200 p-4 text-lg font-semibold text-slate-900">Desk settings</h2>
        <DeskSettingsForm settings={board.settings} />
      </Card>
    </>
  );
}

interface DeskLineProps {
  row: DeskRow;
  state: DeskState;
  board: NonNullable<ReturnType<typeof useFetchDeskQuery>['data']>;
  now: number;
  serverIssues: PublicationRowIssue[];
  onCell: (side: 'buy' | 'sell', value: string) => void;
  onSame: () => void;
  onOfficial: () => void;
  onConfirm: (value: boolean) => void;
}

function DeskLine({
  row,
  state,
  board,
  now,
  serverIssues,
  onCell,
  onSame,
  onOfficial,
  onConfirm,
}: DeskLineProps) {
  const key = rowKey(row);
  const checks = checkRow(row, state, board);
  const flagged = checks.some((c) => c.needsConfirmation) || serverIssues.some((i) => i.needsConfirmation);
  const official = officialFor(row, board.official);
  const cells = state.cells[key] ?? { buy: '', sell: '' };
  const same = state.sameAsLast[key];
  const messages = [
    ...checks.map((c) => c.message),
    ...serverIssues.map((i) => i.message),
    ...(state.unparsed[key] ?? []).map((e) => `Pasted line ${e.line} not read: ${e.message}`),
  ];
  const messageId = `desk-${key}-messages`;
  const name = pairName(row);
  const cell = (side: 'buy' | 'sell') => (
    <td className="p-2">
      <label htmlFor={`desk-${key}-${side}`} className="sr-only">{`${name} ${side}`}</label>
      <input
        id={`desk-${key}-${side}`}
        inputMode="decimal"
        autoComplete="off"
        className={`w-28 rounded-md border p-1 text-right tabular-nums ${checks.some((c) => c.field === side || c.field === 'row') ? 'border-red-600' : 'border-slate-300'}`}
        placeholder={same && row.last ? formatNumber(row.last[side]) : ''}
        value={cells[side]}
        aria-describedby={messages.length > 0 ? messageId : undefined}
        aria-invalid={checks.some((c) => c.field === side && !c.needsConfirmation) || undefined}
        data-desk-cell
        onChange={(event) => onCell(side, event.target.value)}
        onKeyDown={(event) => {
          // Enter moves on like Tab, as in a spreadsheet.
          if (event.key !== 'Enter') return;
          event.preventDefault();
          const cells = [...document.querySelectorAll<HTMLInputElement>('input[data-desk-cell]')];
          cells[cells.indexOf(event.currentTarget) + 1]?.focus();
        }}
      />
    </td>
  );
  return (
    <tr className="border-t border-slate-100 align-top">
      <th scope="row" className="p-2 text-left font-semibold text-slate-900">
        {name}
        {messages.length > 0 && (
          <ul id={messageId} className="mt-1 font-normal text-red-700">
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
      </th>
      <td className="p-2 tabular-nums text-slate-700">
        {row.last ? (
          <>
            {formatNumber(row.last.buy)} / {formatNumber(row.last.sell)}
            <span className="block text-xs text-slate-600" title={formatDateTime(row.last.publishedAt)}>
              {age(row.last.publishedAt, now)}
            </span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td className="p-2 tabular-nums text-slate-700">
        {official ? (
          <span
            title={OFFICIAL_SOURCE_ATTRIBUTION[official.source as keyof typeof OFFICIAL_SOURCE_ATTRIBUTION]}
          >
            {formatNumber(official.mid)}
            <span className="block text-xs text-slate-600">{`${official.source.toUpperCase()} ${official.date}`}</span>
          </span>
        ) : (
          '—'
        )}
      </td>
      {cell('buy')}
      {cell('sell')}
      <td className="p-2">
        <div className="flex flex-wrap gap-1">
          <button
            type="button"
            className="rounded px-2 py-1 text-sm text-slate-700 underline"
            onClick={onSame}
            aria-label={`Same as last: ${name}`}
            disabled={!row.last}
          >
            {same ? 'Same as last ✓' : 'Same as last'}
          </button>
          {row.market === 'bank' && official && (
            <button
              type="button"
              className="rounded px-2 py-1 text-sm text-slate-700 underline"
              onClick={onOfficial}
              aria-label={`Use official: ${name}`}
            >
              Use official
            </button>
          )}
          {flagged && (
            <label className="flex items-center gap-1 text-sm text-slate-900">
              <input
                type="checkbox"
                checked={Boolean(state.confirmed[key])}
                onChange={(event) => onConfirm(event.target.checked)}
              />
              Confirm row
            </label>
          )}
        </div>
      </td>
    </tr>
  );
}
