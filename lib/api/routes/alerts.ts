import { z } from 'zod';
import { AlertMetricSchema, AlertSchema, AlertSeveritySchema, AlertStatusSchema, type Alert } from '../../domain/index.js';
import { acknowledgeAlert } from '../../alerts/index.js';
import { NotFoundError } from '../../ports/index.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { pageSchemaOf } from '../schemas.js';

const IdParams = z.object({ id: z.string().min(1) });

function view({ _etag, ...alert }: Alert & { _etag?: string }): Alert {
  return alert;
}

export const listAlertsRoute = defineRoute({
  name: 'alerts-list',
  method: 'GET',
  path: 'v1/alerts',
  role: 'reader',
  tag: 'alerts',
  summary: 'List regression alerts, newest first, filtered by run, client, status, severity or metric',
  query: z
    .object({
      run_id: z.string().min(1).optional(),
      client_id: z.string().min(1).optional(),
      status: AlertStatusSchema.optional(),
      severity: AlertSeveritySchema.optional(),
      metric: AlertMetricSchema.optional(),
      limit: z.coerce.number().int().min(1).max(1000).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    })
    .strict(),
  responses: { 200: 'a page of alerts', 400: 'invalid filter' },
  response: pageSchemaOf(AlertSchema),
  handler: async ({ services, query }) => {
    const { limit, offset, ...filter } = query;
    const page = await services.stores.alerts.listAlerts(filter, { limit, offset });
    return { status: 200, body: { ...page, items: page.items.map(view) } };
  },
});

export const getAlertRoute = defineRoute({
  name: 'alerts-get',
  method: 'GET',
  path: 'v1/alerts/{id}',
  role: 'reader',
  tag: 'alerts',
  summary: 'One alert (id `<run_id>:<metric>`), with its webhook delivery status',
  params: IdParams,
  responses: { 200: 'the alert', 404: 'no such alert' },
  response: AlertSchema,
  handler: async ({ services, params }) => {
    const alert = await services.stores.alerts.getAlert(params.id);
    if (!alert) throw new NotFoundError('alert', params.id);
    return { status: 200, body: view(alert) };
  },
});

export const acknowledgeAlertRoute = defineRoute({
  name: 'alerts-acknowledge',
  method: 'POST',
  path: 'v1/alerts/{id}/acknowledge',
  role: 'runner',
  tag: 'alerts',
  summary: 'Acknowledge an alert (records who and when; idempotent: acknowledging again changes nothing)',
  params: IdParams,
  responses: { 200: 'the acknowledged alert', 404: 'no such alert' },
  response: AlertSchema,
  handler: async ({ services, params, principal }) => {
    const alert = await acknowledgeAlert(services.stores.alerts, params.id, principal?.name ?? 'unknown', services.clock);
    return { status: 200, body: alert };
  },
});

/** Regression alerts: list, read, acknowledge. */
export const ALERT_ROUTES: readonly RouteDefinition[] = [listAlertsRoute, getAlertRoute, acknowledgeAlertRoute];
