import type { Alert, Run, RunStats } from '../../domain/index.js';
import type { MailMessage } from '../../ports/index.js';
import { alertFacts } from './alertFacts.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain-text and an HTML body of the same facts (title, summary, a table of facts, the dashboard link). */
function bodies(title: string, summary: string, facts: Array<{ name: string; value: string }>, link: string | undefined) {
  const text =
    [title, '', summary, '', ...facts.map((f) => `${f.name}: ${f.value}`), ...(link ? ['', `Open: ${link}`] : [])].join('\n') + '\n';
  const rows = facts.map((f) => `<tr><th align="left">${escapeHtml(f.name)}</th><td>${escapeHtml(f.value)}</td></tr>`).join('');
  const html =
    `<h2>${escapeHtml(title)}</h2><p>${escapeHtml(summary)}</p><table>${rows}</table>` +
    (link ? `<p><a href="${escapeHtml(link)}">Open in the dashboard</a></p>` : '');
  return { text, html };
}

/** The e-mail of an alert: subject `[EvalPlatform] <title>`, the alert's facts and its dashboard link. */
export function alertEmail(alert: Alert, to: string[], publicUrl?: string): MailMessage {
  const facts = alertFacts(alert, { publicUrl });
  return { to, subject: `[EvalPlatform] ${facts.title}`, ...bodies(facts.title, facts.summary, facts.facts, facts.link) };
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);

/** The e-mail of a finished run: status, pass rate, counts, notes and its dashboard link. */
export function runEmail(run: Run, stats: RunStats | undefined, to: string[], publicUrl?: string): MailMessage {
  const title = `Run ${run.id} ${run.status}: pass rate ${pct(stats?.pass_rate)}`;
  const summary = `Suite ${run.suite_id} on target ${run.target_id}${run.client_id ? ` for client ${run.client_id}` : ''} finished ${run.status}.`;
  const facts = [
    { name: 'Status', value: run.status },
    { name: 'Pass rate', value: pct(stats?.pass_rate) },
    {
      name: 'Cases',
      value: `${stats?.passed ?? 0} passed, ${stats?.failed ?? 0} failed, ${stats?.not_scored ?? 0} not scored of ${run.total_cases}`,
    },
    ...(run.completed_at ? [{ name: 'Finished', value: run.completed_at }] : []),
    ...run.notes.map((n) => ({ name: 'Note', value: n })),
  ];
  const link = publicUrl ? `${publicUrl.replace(/\/+$/, '')}/#/runs/${encodeURIComponent(run.id)}` : undefined;
  return { to, subject: `[EvalPlatform] ${title}`, ...bodies(title, summary, facts, link) };
}
