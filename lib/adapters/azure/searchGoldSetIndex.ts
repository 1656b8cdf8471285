import type { SearchIndex, SearchIndexClient } from '@azure/search-documents';
import { organizationOf, type TestCase } from '../../domain/index.js';

/** One test case in the gold-set index. */
export interface GoldSetDocument {
  /** base64url of the case id (index keys allow letters, digits, `-`, `_`, `=` only) */
  key: string;
  case_id: string;
  nl_query: string;
  expected_nl_response: string | null;
  tags: string[];
  category: string | null;
  api_version: string | null;
  complexity: number;
  /** the owning organization (`default` when the case has none); null on documents indexed before organizations */
  organization: string | null;
  /** the question's embedding (not stored: only searchable) */
  embedding: number[];
}

export const GOLD_SET_ANALYZER = 'evalp_text';
export const GOLD_SET_VECTOR_PROFILE = 'evalp-hnsw';
const UNDERSCORE_FILTER = 'evalp_underscore';

/** The key of a case in the index. */
export const searchKey = (caseId: string): string => Buffer.from(caseId, 'utf8').toString('base64url');

/**
 * The gold-set index: question, expected answer and tags searchable with one analyzer that matches the Cosmos and
 * SQLite fallbacks (`_` splits words, lowercase, ASCII folding); tags, category, api_version and complexity
 * filterable; case_id filterable and sortable (stable paging, keyset streams); the question's embedding as a
 * vector field with an HNSW profile (cosine) for near-duplicate search.
 */
export function goldSetIndexDefinition(name: string, dimensions: number): SearchIndex {
  const text = { type: 'Edm.String' as const, searchable: true, analyzerName: GOLD_SET_ANALYZER };
  return {
    name,
    fields: [
      { name: 'key', type: 'Edm.String', key: true, filterable: true },
      { name: 'case_id', type: 'Edm.String', filterable: true, sortable: true },
      { name: 'nl_query', ...text },
      { name: 'expected_nl_response', ...text },
      {
        name: 'tags',
        type: 'Collection(Edm.String)',
        searchable: true,
        filterable: true,
        facetable: true,
        analyzerName: GOLD_SET_ANALYZER,
      },
      { name: 'category', type: 'Edm.String', filterable: true, facetable: true },
      { name: 'api_version', type: 'Edm.String', filterable: true, facetable: true },
      { name: 'complexity', type: 'Edm.Int32', filterable: true, facetable: true },
      { name: 'organization', type: 'Edm.String', filterable: true },
      {
        name: 'embedding',
        type: 'Collection(Edm.Single)',
        searchable: true,
        hidden: true,
        stored: false,
        vectorSearchDimensions: dimensions,
        vectorSearchProfileName: GOLD_SET_VECTOR_PROFILE,
      },
    ],
    charFilters: [{ odatatype: '#Microsoft.Azure.Search.MappingCharFilter', name: UNDERSCORE_FILTER, mappings: ['_=>-'] }],
    analyzers: [
      {
        odatatype: '#Microsoft.Azure.Search.CustomAnalyzer',
        name: GOLD_SET_ANALYZER,
        tokenizerName: 'standard_v2',
        tokenFilters: ['lowercase', 'asciifolding'],
        charFilters: [UNDERSCORE_FILTER],
      },
    ],
    vectorSearch: {
      algorithms: [
        {
          name: `${GOLD_SET_VECTOR_PROFILE}-config`,
          kind: 'hnsw',
          parameters: { m: 4, efConstruction: 400, efSearch: 500, metric: 'cosine' },
        },
      ],
      profiles: [{ name: GOLD_SET_VECTOR_PROFILE, algorithmConfigurationName: `${GOLD_SET_VECTOR_PROFILE}-config` }],
    },
  };
}

/** Creates the index or updates it to this definition (idempotent: run at every start). */
export async function ensureGoldSetIndex(client: SearchIndexClient, name: string, dimensions: number): Promise<void> {
  await client.createOrUpdateIndex(goldSetIndexDefinition(name, dimensions));
}

export function toGoldSetDocument(testCase: TestCase, embedding: number[]): GoldSetDocument {
  const metadata = testCase.metadata;
  return {
    key: searchKey(testCase.id),
    case_id: testCase.id,
    nl_query: testCase.nl_query,
    expected_nl_response: testCase.expected_nl_response ?? null,
    tags: metadata?.tags ?? [],
    category: metadata?.category ?? null,
    api_version: metadata?.api_version ?? null,
    complexity: metadata?.complexity_level ?? 1,
    organization: organizationOf(testCase),
    embedding,
  };
}
