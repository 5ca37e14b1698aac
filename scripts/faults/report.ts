// The fault run's report: a table of each fault's figures.
import { isServed, type RequestOutcome } from './load';
import { type FaultResult, seconds } from './harness';

export function statusSummary(outcomes: RequestOutcome[]): string {
  const counts = new Map<number, number>();
  for (const o of outcomes) if (!isServed(o.status)) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  if (counts.size === 0) return 'none';
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} × ${status === 0 ? 'no answer' : status}`)
    .join(', ');
}

export function printTable(results: FaultResult[]) {
  const header = [
    'fault',
    'served (2xx)',
    'logged',
    'lost',
    'logged twice',
    'over quota',
    'quota count off',
    'mails delivered/expected (duplicates)',
    'recovery',
  ];
  const rows = results.map((r) => {
    const slowest = r.recoveryMs.some((ms) => ms === undefined)
      ? `no (API ${r.recoveryMs
          .map((ms, i) => (ms === undefined ? i + 1 : 0))
          .filter(Boolean)
          .join(', ')})`
      : seconds(Math.max(...(r.recoveryMs as number[])));
    const mail = r.mailing
      ? `${r.mailing.delivered}/${r.mailing.expected} (${r.mailing.duplicates}` +
        `${r.mailing.resent ? `, ${r.mailing.resent} with a repeated Message-ID` : ''})`
      : '-';
    const mailDone = r.mailing
      ? `; mailing ${r.mailing.doneAfterMs === undefined ? 'not done' : `done +${seconds(r.mailing.doneAfterMs)}`}`
      : '';
    return [
      r.fault.title,
      String(r.served),
      String(r.logged),
      String(r.lost),
      String(r.loggedTwice),
      String(r.overQuota),
      String(r.miscounted),
      mail,
      `${slowest}${mailDone}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}
