import { createHash } from 'node:crypto';

/**
 * Every Cosmos DB container the platform uses, declared once: its id, partition key, TTL and the indexes its
 * queries need. The adapters create nothing in Azure (infra/ does, from this table); `ensureCosmosContainers`
 * creates them against the emulator or a dev account. Plain data (no SDK types) so infra tests can read it.
 */
export interface CosmosContainerSpec {
  /** container id */
  id: string;
  /** partition key paths: one path, or up to three for a hierarchical (MultiHash, version 2) key */
  partitionKeyPaths: readonly string[];
  /** `defaultTtl`: -1 turns TTL on with no default (items expire only with their own `ttl`); absent = off */
  defaultTtl?: number;
  /** paths the queries filter or sort on (everything else is excluded from the index); absent = index all */
  indexedPaths?: readonly string[];
  /** composite indexes for ORDER BY over several properties */
  compositeIndexes?: ReadonlyArray<ReadonlyArray<{ path: string; order: 'ascending' | 'descending' }>>;
  /** what it holds, and why this partition key */
  purpose: string;
}

/** Scorecards and outcome rows of one run spread over this many logical partitions (fixed: it is part of every key). */
export const SCORECARD_SHARDS = 64;

export const COSMOS_CONTAINERS = {
  testCases: {
    id: 'testcases',
    partitionKeyPaths: ['/id'],
    indexedPaths: ['/case_id/?', '/category/?', '/api_version/?', '/complexity/?', '/tags/[]/?', '/search/?'],
    purpose:
      'the gold set, one document per case ({id, case_id, filter fields, search, body}); /id spreads imports of 400k cases evenly and makes point reads 1 RU',
  },
  entities: {
    id: 'entities',
    partitionKeyPaths: ['/kind'],
    indexedPaths: ['/kind/?', '/entity_id/?', '/owned/?'],
    purpose:
      'suites, tool catalogs, targets and clients ({id, kind, entity_id, body}); few and small: one logical partition per kind keeps list-by-id a single-partition query',
  },
  runs: {
    id: 'runs',
    partitionKeyPaths: ['/id'],
    indexedPaths: ['/run_id/?', '/status/?', '/client_id/?', '/suite_id/?', '/target_id/?', '/created_utc/?'],
    compositeIndexes: [
      [
        { path: '/created_utc', order: 'descending' },
        { path: '/run_id', order: 'descending' },
      ],
    ],
    purpose: 'runs ({id, run_id, filter fields, created_utc, body}); ETag-checked status transitions; listed newest first',
  },
  runShards: {
    id: 'runshards',
    partitionKeyPaths: ['/run_id'],
    indexedPaths: ['/run_id/?', '/index/?'],
    purpose: 'the frozen case-id lists of a run (one document per shard of ~5,000 ids), kept out of orchestration history',
  },
  scorecards: {
    id: 'scorecards',
    partitionKeyPaths: ['/run_id', '/shard'],
    defaultTtl: -1,
    indexedPaths: [
      '/run_id/?',
      '/shard/?',
      '/test_case_id/?',
      '/overall_passed/?',
      '/failing_stage/?',
      '/error_code/?',
      '/category/?',
      '/tags/[]/?',
    ],
    purpose:
      "one scorecard per (run, case), the fields at the top level (the change feed hands whole documents to the statistics fold); hierarchical key [run_id, shard = hash(case) % 64] spreads a run's 400k-write burst over 64 logical partitions while a run's queries stay prefix-scoped; per-item ttl when EVALP_SCORECARD_TTL_SECONDS is set",
  },
  runStats: {
    id: 'runstats',
    partitionKeyPaths: ['/run_id', '/shard'],
    defaultTtl: -1,
    indexedPaths: ['/run_id/?', '/shard/?'],
    purpose:
      'live run statistics: one state document per run ([run_id, "stats"], ETag-checked, with a journal of the batch it applies) and the counted outcome of each case ([run_id, shard], same spread and ttl as scorecards)',
  },
  apiKeys: {
    id: 'apikeys',
    partitionKeyPaths: ['/id'],
    indexedPaths: ['/key_id/?', '/created_at/?', '/revoked/?'],
    compositeIndexes: [
      [
        { path: '/created_at', order: 'ascending' },
        { path: '/key_id', order: 'ascending' },
      ],
    ],
    purpose: 'API keys (SHA-256 hashes only); point reads by key id on every request',
  },
  annotations: {
    id: 'annotations',
    partitionKeyPaths: ['/task_id'],
    indexedPaths: ['/type/?', '/task_id/?', '/position/?', '/created_utc/?'],
    purpose:
      'human annotation tasks: a task document and one document per item with its labels and live claims; /task_id keeps a task in one partition, and ETag-checked item replaces keep concurrent claims from over-assigning',
  },
  suiteVersions: {
    id: 'suiteversions',
    partitionKeyPaths: ['/suite_id', '/version_key'],
    indexedPaths: ['/type/?', '/suite_id/?', '/version/?', '/state/?', '/position/?', '/test_case_id/?'],
    purpose:
      "published suite versions: a header document and one document per case (id, position, content hash, published body); hierarchical key [suite_id, version] keeps a version in one logical partition and a suite's versions a prefix query",
  },
  feedback: {
    id: 'feedback',
    partitionKeyPaths: ['/id'],
    indexedPaths: ['/type/?', '/entity_id/?', '/status/?', '/group_id/?', '/created_utc/?'],
    purpose:
      'production feedback: logged interactions ({id: "interaction:<id>"}) and the candidate cases made from them ({id: "candidate:<id>", status, group_id}); /id makes a re-posted interaction an exact 409 (stored once) and candidate decisions are ETag-checked replaces',
  },
  alerts: {
    id: 'alerts',
    partitionKeyPaths: ['/id'],
    indexedPaths: [
      '/type/?',
      '/entity_id/?',
      '/alert_id/?',
      '/run_id/?',
      '/client_id/?',
      '/status/?',
      '/severity/?',
      '/metric/?',
      '/created_utc/?',
    ],
    compositeIndexes: [
      [
        { path: '/created_utc', order: 'descending' },
        { path: '/entity_id', order: 'descending' },
      ],
      [
        { path: '/created_utc', order: 'ascending' },
        { path: '/entity_id', order: 'ascending' },
      ],
    ],
    purpose:
      'regression alerts, their webhook notifications (the delivery outbox) and live-check claims ({id: "<type>:<key>", type, entity_id, filter fields, body}); few documents: /id makes create-once (409) exact for notifications and claims',
  },
  audit: {
    id: 'audit',
    partitionKeyPaths: ['/id'],
    indexedPaths: ['/record_id/?', '/at_utc/?', '/actor_id/?', '/actor_name/?', '/entity_type/?', '/entity_id/?'],
    compositeIndexes: [
      [
        { path: '/at_utc', order: 'descending' },
        { path: '/record_id', order: 'descending' },
      ],
    ],
    purpose:
      'append-only audit records ({id, at_utc, actor and entity fields, record}); /id makes a duplicate record id a 409 wherever it lands',
  },
  leases: {
    id: 'leases',
    partitionKeyPaths: ['/id'],
    purpose:
      "the change-feed trigger's leases (runStatsFeed, prefix runstats-); /id is what the Functions trigger requires; pre-created because createLeaseContainerIfNotExists fails with Entra ID",
  },
} as const satisfies Record<string, CosmosContainerSpec>;

export type CosmosContainerKey = keyof typeof COSMOS_CONTAINERS;

/** The shard of a case within its run (0..SCORECARD_SHARDS-1, as a string: it is a partition key component). */
export function shardOf(testCaseId: string): string {
  return String(createHash('sha1').update(testCaseId).digest().readUInt32BE(0) % SCORECARD_SHARDS);
}
