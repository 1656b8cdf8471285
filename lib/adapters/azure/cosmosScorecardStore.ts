import { BulkOperationType, type Container, type JSONObject, type OperationInput } from '@azure/cosmos';
import { type Scorecard, scorecardKeyOf } from '../../domain/index.js';
import { type Page, pageOf, type PageOptions, type ScorecardFilter, type ScorecardStore } from '../../ports/index.js';
import { deleteLimit, encodeScorecard } from '../shared/index.js';
import { assertBulk, bulkStatus, countWhere, executeBulk, queryAll, queryPages } from './cosmosBulk.js';
import { shardOf } from './cosmosContainers.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow } from './cosmosPaging.js';
import { scorecardWhere } from './cosmosScorecardQuery.js';

/** A scorecard as stored: its fields at the top level (the change feed hands whole documents to the fold). */
export type ScorecardDocument = Scorecard & {
  id: string;
  shard: string;
  /** SHA-1 of the card without timestamp, worker_id and evaluation_ms (as the embedded store) */
  content_hash: string;
  ttl?: number;
  _etag?: string;
};

/** Fields the store adds, and Cosmos DB's system properties: removed on the way out. */
const STORE_FIELDS = ['id', 'shard', 'content_hash', 'ttl', '_etag', '_rid', '_self', '_ts', '_attachments', '_lsn'] as const;

/** Conditional-write rounds before `upsertScorecards` gives up on a card that keeps changing under it. */
const WRITE_ROUNDS = 10;
/** Cards per page of `iterateScorecards`. */
export const ITERATE_PAGE_SIZE = 500;

export interface CosmosScorecardStoreOptions {
  /** per-item `ttl` in seconds (EVALP_SCORECARD_TTL_SECONDS); absent: cards never expire */
  ttlSeconds?: number;
}

export function toScorecard(doc: ScorecardDocument | Record<string, unknown>): Scorecard {
  const card: Record<string, unknown> = { ...doc };
  for (const field of STORE_FIELDS) delete card[field];
  return card as Scorecard;
}

/** A card's key within its run: [run_id, shard] partition, id = the trial key (the case id for trial 1) made Cosmos-safe. */
export function scorecardKey(runId: string, testCaseId: string): { id: string; partitionKey: [string, string] } {
  return { id: toCosmosId(testCaseId), partitionKey: [runId, shardOf(testCaseId)] };
}

interface StoredState {
  attempt_number: number;
  content_hash: string;
  etag: string;
}

interface FoldCounts {
  written: number;
  unchanged: number;
}

/**
 * Applies one key's cards in batch order to what is stored (the port's rules): a card replaces the current one
 * unless that has a higher attempt or the same content hash. Returns the counts and the last card that replaced
 * (the one to write), if any.
 */
function foldCards(
  stored: Pick<StoredState, 'attempt_number' | 'content_hash'> | undefined,
  cards: readonly Scorecard[],
): FoldCounts & { winner?: Scorecard } {
  let current = stored;
  let winner: Scorecard | undefined;
  let written = 0;
  let unchanged = 0;
  for (const card of cards) {
    const hash = encodeScorecard(card).contentHash;
    if (!current || (card.attempt_number >= current.attempt_number && hash !== current.content_hash)) {
      current = { attempt_number: card.attempt_number, content_hash: hash };
      winner = card;
      written++;
    } else {
      unchanged++;
    }
  }
  return winner ? { written, unchanged, winner } : { written, unchanged };
}

/**
 * Scorecards on Cosmos DB, hierarchical partition key [run_id, shard] (cosmosContainers.ts). `upsertScorecards`
 * tries a bulk Create of each card (one operation for the usual first write); a card that exists is read and
 * replaced only when the port's rules say so (higher attempt, or same attempt with other content), with an
 * IfMatch on the read ETag, retried when another writer got there first. Every query filters on run_id, the key's
 * first level, which Cosmos DB routes to the partitions holding that run (no prefix key is passed to the SDK).
 */
export class CosmosScorecardStore implements ScorecardStore {
  constructor(
    readonly container: Container,
    private readonly options: CosmosScorecardStoreOptions = {},
  ) {}

  async upsertScorecards(cards: readonly Scorecard[]): Promise<{ written: number; unchanged: number }> {
    const groups = new Map<string, Scorecard[]>();
    for (const card of cards) {
      const key = `${card.run_id}\u0000${scorecardKeyOf(card)}`;
      const group = groups.get(key);
      if (group) group.push(card);
      else groups.set(key, [card]);
    }
    let written = 0;
    let unchanged = 0;
    // round 1 assumes nothing is stored (the usual first write: one Create per card); later rounds read what is
    let pending: Array<{ cards: Scorecard[]; stored?: StoredState | 'absent' }> = [...groups.values()].map((group) => ({
      cards: group,
      stored: 'absent',
    }));
    for (let round = 1; pending.length > 0; round++) {
      if (round > WRITE_ROUNDS)
        throw new Error(`upsertScorecards: ${pending.length} cards kept changing under ${WRITE_ROUNDS} conditional writes`);
      await this.readStored(pending.filter((entry) => entry.stored === undefined));
      const writes: Array<{ entry: (typeof pending)[number]; operation: OperationInput; counts: FoldCounts }> = [];
      for (const entry of pending) {
        const stored = entry.stored === 'absent' ? undefined : entry.stored;
        const fold = foldCards(stored, entry.cards);
        if (!fold.winner) {
          unchanged += fold.unchanged;
          continue;
        }
        const doc = this.toDocument(fold.winner) as unknown as JSONObject;
        const operation: OperationInput = stored
          ? {
              operationType: BulkOperationType.Replace,
              id: String(doc.id),
              partitionKey: [fold.winner.run_id, String(doc.shard)],
              ifMatch: stored.etag,
              resourceBody: doc,
            }
          : { operationType: BulkOperationType.Create, partitionKey: [fold.winner.run_id, String(doc.shard)], resourceBody: doc };
        writes.push({ entry, operation, counts: fold });
      }
      const results = await executeBulk(
        this.container,
        writes.map((write) => write.operation),
      );
      assertBulk(results, (status) => status === 200 || status === 201 || status === 404 || status === 409 || status === 412);
      pending = [];
      writes.forEach((write, i) => {
        const status = bulkStatus(results[i]!);
        if (status === 200 || status === 201) {
          written += write.counts.written;
          unchanged += write.counts.unchanged;
        } else {
          // someone else wrote (or the card expired) in between: read it and decide again
          pending.push({ cards: write.entry.cards });
        }
      });
    }
    return { written, unchanged };
  }

  /** Reads the stored state of each entry (`'absent'` when there is none). */
  private async readStored(entries: Array<{ cards: Scorecard[]; stored?: StoredState | 'absent' }>): Promise<void> {
    if (entries.length === 0) return;
    const reads = await executeBulk(
      this.container,
      entries.map(({ cards }) => ({ operationType: BulkOperationType.Read, ...scorecardKey(cards[0]!.run_id, scorecardKeyOf(cards[0]!)) })),
    );
    assertBulk(reads, (status) => status === 200 || status === 404);
    entries.forEach((entry, i) => {
      const doc = reads[i]!.response?.resourceBody as unknown as ScorecardDocument | undefined;
      entry.stored =
        doc && bulkStatus(reads[i]!) === 200
          ? { attempt_number: doc.attempt_number, content_hash: doc.content_hash, etag: doc._etag! }
          : 'absent';
    });
  }

  async getScorecard(runId: string, testCaseId: string): Promise<Scorecard | undefined> {
    const { id, partitionKey } = scorecardKey(runId, testCaseId);
    const { resource } = await this.container.item(id, partitionKey).read<ScorecardDocument>();
    return resource ? toScorecard(resource) : undefined;
  }

  async listScorecards(runId: string, filter: ScorecardFilter = {}, options: PageOptions = {}): Promise<Page<Scorecard>> {
    const window = pageWindow(options);
    const { where, parameters } = scorecardWhere(runId, filter);
    const top = window.offset + window.limit;
    const docs = await queryAll<ScorecardDocument>(this.container, {
      query: `SELECT TOP @top * FROM c${where} ORDER BY c.test_case_id`,
      parameters: [...parameters, { name: '@top', value: top }],
    });
    const total = docs.length < top ? docs.length : await countWhere(this.container, where, parameters);
    return pageOf(docs.slice(window.offset).map(toScorecard), total, window);
  }

  async deleteScorecards(runId: string, options: { limit?: number } = {}): Promise<number> {
    const keys = await queryAll<{ id: string; shard: string }>(this.container, {
      query: 'SELECT TOP @limit c.id, c.shard FROM c WHERE c.run_id = @run',
      parameters: [
        { name: '@run', value: runId },
        { name: '@limit', value: deleteLimit(options.limit) },
      ],
    });
    if (keys.length === 0) return 0;
    const results = await executeBulk(
      this.container,
      keys.map(({ id, shard }) => ({ operationType: BulkOperationType.Delete, id, partitionKey: [runId, String(shard)] })),
    );
    assertBulk(results, (status) => status === 204 || status === 404);
    return keys.length;
  }

  async *iterateScorecards(runId: string): AsyncIterable<Scorecard> {
    const { where, parameters } = scorecardWhere(runId, {});
    for await (const page of queryPages<ScorecardDocument>(
      this.container,
      { query: `SELECT * FROM c${where}`, parameters },
      { maxItemCount: ITERATE_PAGE_SIZE },
    )) {
      for (const doc of page) yield toScorecard(doc);
    }
  }

  async countScorecards(runId: string, filter: ScorecardFilter = {}): Promise<number> {
    const { where, parameters } = scorecardWhere(runId, filter);
    return countWhere(this.container, where, parameters);
  }

  toDocument(card: Scorecard): ScorecardDocument {
    const { id, partitionKey } = scorecardKey(card.run_id, scorecardKeyOf(card));
    const doc: ScorecardDocument = { ...card, id, shard: partitionKey[1], content_hash: encodeScorecard(card).contentHash };
    if (this.options.ttlSeconds !== undefined) doc.ttl = this.options.ttlSeconds;
    return doc;
  }
}
