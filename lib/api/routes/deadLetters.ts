import { z } from 'zod';
import { STAGE_QUEUE_NAMES } from '../../runs/index.js';
import { defineRoute } from '../route.js';

const QueueNameSchema = z.enum(STAGE_QUEUE_NAMES as [string, ...string[]]);
const QueueParams = z.object({ queue: QueueNameSchema });

const DeadLetterViewSchema = z.object({
  message_id: z.string(),
  sequence_number: z.string(),
  reason: z.string(),
  description: z.string(),
  delivery_count: z.number().int(),
  enqueued_at: z.string().nullable(),
  correlation_id: z.string().nullable(),
  subject: z.string().nullable(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  body: z.unknown(),
});

export const listDeadLettersRoute = defineRoute({
  name: 'dead-letters-list',
  method: 'GET',
  path: 'v1/dead-letters/{queue}',
  role: 'platform-admin',
  tag: 'dead-letters',
  summary: 'The dead-lettered messages of a stage queue, oldest first (nothing is changed)',
  params: QueueParams,
  query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }).strict(),
  response: z.object({ queue: z.string(), items: z.array(DeadLetterViewSchema) }),
  responses: { 200: 'the dead letters', 400: 'unknown queue' },
  handler: async (ctx) => {
    const messages = await ctx.services.deadLetters.listDeadLetters(ctx.params.queue, { limit: ctx.query.limit });
    return {
      status: 200,
      body: {
        queue: ctx.params.queue,
        items: messages.map((m) => ({
          message_id: m.messageId,
          sequence_number: m.sequenceNumber,
          reason: m.deadLetterReason,
          description: m.deadLetterErrorDescription,
          delivery_count: m.deliveryCount,
          enqueued_at: m.enqueuedTimeUtc ? m.enqueuedTimeUtc.toISOString() : null,
          correlation_id: m.correlationId ?? null,
          subject: m.subject ?? null,
          properties: m.applicationProperties,
          body: m.body,
        })),
      },
    };
  },
});

export const replayDeadLettersRoute = defineRoute({
  name: 'dead-letters-replay',
  method: 'POST',
  path: 'v1/dead-letters/{queue}/replay',
  role: 'platform-admin',
  tag: 'dead-letters',
  summary: 'Send dead-lettered messages back to their queue (all, or those named by message id)',
  params: QueueParams,
  body: z.object({ message_ids: z.array(z.string().min(1)).min(1).max(1000).optional() }).strict(),
  response: z.object({ queue: z.string(), replayed: z.number().int(), not_found: z.array(z.string()) }),
  responses: { 200: 'replayed', 400: 'unknown queue or invalid body' },
  handler: async (ctx) => {
    const result = await ctx.services.deadLetters.replayDeadLetters(
      ctx.params.queue,
      ctx.body.message_ids ? { messageIds: ctx.body.message_ids } : {},
    );
    return { status: 200, body: { queue: ctx.params.queue, replayed: result.replayed, not_found: result.notFound } };
  },
});

export const DEAD_LETTER_ROUTES = [listDeadLettersRoute, replayDeadLettersRoute];
