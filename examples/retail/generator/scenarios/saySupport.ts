import { capitalize } from './helpers.js';
import { count, failureSentence, list, okData, type Answer, type ResultView } from './types.js';
import type { TicketCreatedView, TicketListView } from './views.js';

/** A list of tickets; `label` names them as a plural noun phrase ("open tickets for CUS-10482"). */
export function sayTicketList(r: ResultView | undefined, label: string): Answer {
  const d = okData<TicketListView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the tickets')], facts: [] };
  if (d.total_count === 0 || d.tickets.length === 0) return { sentences: [`There are no ${label}.`], facts: [`no ${label}`] };
  const shown = d.tickets.slice(0, 10).map((t) => `${t.ticket_id} "${t.subject}" (${t.priority} priority, ${t.status})`);
  const total =
    d.total_count > shown.length ? `${count(d.total_count, 'ticket')} match in total.` : `That is ${count(d.total_count, 'ticket')}.`;
  return {
    sentences: [`${capitalize(label)}: ${list(shown)}.`, total],
    facts: [count(d.total_count, 'ticket'), d.tickets[0]!.ticket_id],
  };
}

export function sayTicketCreated(r: ResultView | undefined, reference: boolean): Answer {
  const d = okData<TicketCreatedView>(r);
  if (!d) return { sentences: [failureSentence(r, 'a ticket opened')], facts: [] };
  const id = reference ? '' : ` ${d.ticket_id}`;
  return {
    sentences: [`I opened ${d.category} ticket${id} with ${d.priority} priority; it is assigned to the ${d.assigned_team} team.`],
    facts: [`${d.category} ticket`, `${d.priority} priority`, `${d.assigned_team} team`],
  };
}
