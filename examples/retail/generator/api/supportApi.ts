import type { JsonValue } from '../../../../lib/domain/index.js';
import { AUTHORED_AT, RECORDED_AT } from '../dates.js';
import { hashString, Prng } from '../prng.js';
import type { TicketCategory, World } from '../world/types.js';
import { apiError, num, ok, str, type ApiResult, type NormalizedArgs, type Volatile } from './types.js';
import { timeSensitive, volatileField } from './volatile.js';

const TEAMS: Record<TicketCategory, string> = {
  billing: 'Billing',
  shipping: 'Logistics',
  product: 'Product care',
  account: 'Accounts',
  other: 'General',
};
const SLA_HOURS: Record<string, number> = { low: 72, normal: 48, high: 24, urgent: 4 };
const AUTHORED_MS = Date.parse(AUTHORED_AT);
const RECORDED_MS = Date.parse(RECORDED_AT);

export function createSupportTicket(world: World, args: NormalizedArgs, key: string): ApiResult {
  const customerId = str(args, 'customer_id') ?? '';
  if (!world.byCustomerId.has(customerId)) return apiError(404, 'customer_not_found', `No customer ${customerId}.`);
  const orderId = str(args, 'order_id');
  const order = orderId === undefined ? undefined : world.byOrderId.get(orderId);
  if (orderId !== undefined && order?.customer_id !== customerId) {
    return apiError(422, 'order_not_owned', `Order ${orderId} does not belong to customer ${customerId}.`);
  }
  const category = (str(args, 'category') ?? 'other') as TicketCategory;
  const priority = str(args, 'priority') ?? 'normal';
  const id = new Prng(hashString(key));
  const slaDue = (at: number): string => new Date(at + SLA_HOURS[priority]! * 3_600_000).toISOString().replace('.000Z', 'Z');
  return ok(
    {
      ticket_id: `TCK-${id.int(40_000, 49_999)}`,
      customer_id: customerId,
      order_id: orderId ?? null,
      subject: str(args, 'subject') ?? '',
      category,
      priority,
      status: 'open',
      assigned_team: TEAMS[category],
      sla_due_at: slaDue(AUTHORED_MS),
    },
    [
      volatileField('/ticket_id', `TCK-${id.int(40_000, 49_999)}`),
      // the subject is the agent's own wording: any text will do
      volatileField('/subject', str(args, 'subject') ?? ''),
      volatileField('/sla_due_at', slaDue(RECORDED_MS)),
    ],
    201,
  );
}

export function listSupportTickets(world: World, args: NormalizedArgs): ApiResult {
  const f = {
    customer_id: str(args, 'customer_id'),
    status: str(args, 'status'),
    priority: str(args, 'priority'),
    category: str(args, 'category'),
  };
  const after = str(args, 'created_after');
  const matches = world.tickets
    .filter((t) => (Object.keys(f) as (keyof typeof f)[]).every((k) => f[k] === undefined || t[k] === f[k]))
    .filter((t) => after === undefined || t.created_at.slice(0, 10) >= after)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  const shown = matches.slice(0, num(args, 'limit') ?? 20);
  const volatile: Volatile[] = [];
  const tickets = shown.map((t, i) => {
    const view: Record<string, JsonValue> = {
      ticket_id: t.ticket_id,
      subject: t.subject,
      status: t.status,
      priority: t.priority,
      category: t.category,
      customer_id: t.customer_id,
      order_id: t.order_id,
      created_at: t.created_at,
    };
    if (t.status === 'open' || t.status === 'pending') {
      // the age of a ticket still open grows between authoring and recording
      const age = Math.max(0, Math.round((AUTHORED_MS - Date.parse(t.created_at)) / 3_600_000));
      view['age_hours'] = age;
      volatile.push(timeSensitive(t.ticket_id, `/tickets/${i}/age_hours`, age, 24, { integer: true, absolute: true }));
    }
    return view;
  });
  return ok({ total_count: matches.length, tickets }, volatile);
}
