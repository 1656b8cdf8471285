import { SearchIndexClient } from '@azure/search-documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_CASES, sampleTestCase } from '../../ports/contracts/index.js';
import { ensureGoldSetIndex, goldSetIndexDefinition, searchKey } from './searchGoldSetIndex.js';
import { DIMENSIONS, searchCredential, startSearchedGoldSet, type SearchedGoldSet } from './searchedGoldSet.test-helpers.js';

let env: SearchedGoldSet;
beforeAll(async () => {
  env = await startSearchedGoldSet();
});
afterAll(async () => {
  await env.close();
});

const requestsTo = (index: string, action: string) =>
  env.searchStub.requests.filter((r) => r.path === `/indexes('${index}')/docs/${action}`);

describe('SearchIndexedTestCaseStore', () => {
  it('creates or updates the index definition idempotently', async () => {
    const client = new SearchIndexClient(env.searchStub.endpoint, searchCredential, { agent: env.agent });
    await ensureGoldSetIndex(client, 'idempotent', DIMENSIONS);
    await ensureGoldSetIndex(client, 'idempotent', DIMENSIONS);
    const puts = env.searchStub.requests.filter((r) => r.method === 'PUT' && r.path === "/indexes('idempotent')");
    expect(puts).toHaveLength(2);
    expect(puts[1]!.body).toEqual(puts[0]!.body);
    const definition = env.searchStub.indexes.get('idempotent') as {
      fields: Array<Record<string, unknown>>;
      vectorSearch: Record<string, unknown>;
    };
    expect(definition.fields.find((f) => f.name === 'embedding')).toMatchObject({
      type: 'Collection(Edm.Single)',
      dimensions: DIMENSIONS,
      vectorSearchProfile: 'evalp-hnsw',
      stored: false,
    });
    expect(definition.fields.find((f) => f.name === 'tags')).toMatchObject({ searchable: true, filterable: true, analyzer: 'evalp_text' });
    expect(definition.vectorSearch).toMatchObject({ algorithms: [{ kind: 'hnsw', hnswParameters: { metric: 'cosine' } }] });
    expect(goldSetIndexDefinition('x', 3).fields.map((f) => f.name)).toEqual([
      'key',
      'case_id',
      'nl_query',
      'expected_nl_response',
      'tags',
      'category',
      'api_version',
      'complexity',
      'organization',
      'embedding',
    ]);
  });

  it("mirrors batch upserts in index batches of 1,000 with the questions' embeddings, and deletes", async () => {
    const { store, name } = await env.newStore();
    const before = env.embeddings.requests.length;
    const cases = Array.from({ length: 1_100 }, (_, i) => sampleTestCase(`b-${i}`, { tags: ['bulk'] }));
    expect(await store.upsertTestCases(cases)).toEqual({ created: 1_100, updated: 0 });
    expect(requestsTo(name, 'search.index').map((r) => (r.body as { value: unknown[] }).value.length)).toEqual([1_000, 100]);
    expect(env.embeddings.requests.length - before).toBe(5); // 256 texts per embeddings request: 4 for the first 1,000, 1 for the rest
    const doc = env.searchStub.documents.get(name)!.get(searchKey('b-7'))!;
    expect(doc).toMatchObject({ case_id: 'b-7', nl_query: cases[7]!.nl_query, tags: ['bulk'], complexity: 1, category: null });
    expect((doc.embedding as number[]).length).toBe(DIMENSIONS);
    await store.deleteTestCase('b-7');
    expect(env.searchStub.documents.get(name)!.has(searchKey('b-7'))).toBe(false);
  });

  it('answers q from the index (OData filter, search text) and everything else from Cosmos DB', async () => {
    const { store, name } = await env.newStore();
    await store.upsertTestCases(FILTER_CASES);
    const searches = () => requestsTo(name, 'search.post.search').length;
    const before = searches();
    expect((await store.listTestCases({ tags: ['smoke'] })).total).toBe(2);
    expect(searches()).toBe(before);
    const page = await store.listTestCases({ q: "weather O'Brien", tags: ['weather', 'smoke'], complexity_min: 2 }, { limit: 5 });
    expect(page.total).toBe(0);
    const request = requestsTo(name, 'search.post.search').at(-1)!.body;
    expect(request).toMatchObject({
      search: 'weather "o" brien*',
      searchMode: 'all',
      searchFields: 'nl_query,expected_nl_response,tags',
      filter: "(tags/any(t: t eq 'weather' or t eq 'smoke')) and (complexity ge 2)",
      count: true,
      top: 5,
      skip: 0,
      orderby: 'case_id asc',
    });
    const found = await store.listTestCases({ q: 'weather', category: 'weather' });
    expect(found.items.map((c) => c.id)).toEqual(['c1', 'c5']);
    expect(found.items[0]).toEqual({ ...FILTER_CASES[0], _etag: (await store.getTestCase('c1'))!._etag });
  });

  it("keeps full-text lists and counts to an organization's cases (documents indexed before organizations are default's)", async () => {
    const { store, name } = await env.newStore();
    const kettle = (id: string, organization?: string) => ({
      ...sampleTestCase(id),
      nl_query: `refund the blue kettle of order ${id}`,
      ...(organization ? { organization } : {}),
    });
    await store.upsertTestCases([kettle('k-acme', 'acme'), kettle('k-default'), kettle('k-old')]);
    expect(env.searchStub.documents.get(name)!.get(searchKey('k-acme'))).toMatchObject({ organization: 'acme' });
    expect(env.searchStub.documents.get(name)!.get(searchKey('k-default'))).toMatchObject({ organization: 'default' });
    env.searchStub.documents.get(name)!.get(searchKey('k-old'))!.organization = null; // indexed before the field existed
    expect(await store.countTestCases({ q: 'kettle', organization: 'acme' })).toBe(1);
    expect(await store.countTestCases({ q: 'kettle', organization: 'default' })).toBe(2);
    expect(await store.countTestCases({ q: 'kettle', organization: 'other' })).toBe(0);
    const page = await store.listTestCases({ q: 'kettle', organization: 'acme' });
    expect([page.total, page.items.map((c) => c.id)]).toEqual([1, ['k-acme']]);
    const ids: string[] = [];
    for await (const id of store.listTestCaseIds({ q: 'kettle', organization: 'default' })) ids.push(id);
    expect(ids.sort()).toEqual(['k-default', 'k-old']);
  });

  it('authenticates with Entra ID tokens: the search service and the embeddings deployment', async () => {
    const { store, name } = await env.newStore();
    await store.createTestCase(sampleTestCase('auth'));
    expect(requestsTo(name, 'search.index').at(-1)!.headers.authorization).toBe('Bearer search-token');
    const embedding = env.embeddings.requests.at(-1)!;
    expect([embedding.path, embedding.headers.authorization, embedding.body.dimensions]).toEqual([
      '/openai/deployments/embeddings/embeddings?api-version=2024-10-21',
      'Bearer openai-token',
      DIMENSIONS,
    ]);
  });

  it('reindexes from Cosmos DB when the index lost documents', async () => {
    const { store, name, inner } = await env.newStore();
    await inner.upsertTestCases(FILTER_CASES); // written behind the index's back
    expect((await store.listTestCases({ q: 'weather' })).total).toBe(0);
    expect(await store.reindex()).toBe(FILTER_CASES.length);
    expect(env.searchStub.documents.get(name)!.size).toBe(FILTER_CASES.length);
    expect((await store.listTestCases({ q: 'weather' })).items.map((c) => c.id)).toEqual(['c1', 'c5']);
  });
});
