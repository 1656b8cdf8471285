import { hash } from 'node:crypto';
import type { Scorecard } from '../../domain/index.js';

/** A scorecard as the store writes it: its JSON text and the hash of its content. */
export interface EncodedScorecard {
  body: string;
  /** SHA-1 (base64) of the card without `timestamp`, `worker_id` and `evaluation_ms` */
  contentHash: string;
}

/**
 * Serialises a card once: the content (everything but the three fields that differ between two evaluations of
 * the same result: when, where and how long) is stringified and hashed, and the body is that text with those
 * three fields spliced in front. Stage `duration_ms` values are content: a recomputed card usually differs.
 */
export function encodeScorecard(card: Scorecard): EncodedScorecard {
  const { timestamp, worker_id, evaluation_ms, ...content } = card;
  const contentJson = JSON.stringify(content);
  const volatileJson = JSON.stringify({ timestamp, worker_id, evaluation_ms });
  const body = volatileJson === '{}' ? contentJson : `${volatileJson.slice(0, -1)},${contentJson.slice(1)}`;
  return { body, contentHash: hash('sha1', contentJson, 'base64') };
}
