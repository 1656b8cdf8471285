import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingsStub, stubEmbedding, type EmbeddingsStub } from './embeddingsStub.test-helpers.js';
import { AzureOpenAI } from 'openai';
import { OpenAIEmbedder, createAzureOpenAIEmbedder } from './searchEmbeddings.js';

let stub: EmbeddingsStub;
beforeAll(async () => {
  stub = await startEmbeddingsStub();
});
afterAll(async () => {
  await stub.close();
});

const settings = (over: Partial<Parameters<typeof createAzureOpenAIEmbedder>[0]> = {}) => ({
  endpoint: stub.endpoint,
  deployment: 'text-embedding-3-small',
  apiVersion: '2024-10-21',
  dimensions: 32,
  azureADTokenProvider: async () => 'entra-token',
  maxRetries: 0,
  ...over,
});

describe('createAzureOpenAIEmbedder (the real openai client against a local embeddings server)', () => {
  it('embeds in batches of 256 with Entra ID tokens, vectors in input order', async () => {
    const before = stub.requests.length;
    const texts = Array.from({ length: 300 }, (_, i) => `question number ${i}`);
    const vectors = await createAzureOpenAIEmbedder(settings()).embed(texts);
    expect(vectors.map((v) => v.map((x) => Math.fround(x)))).toEqual(texts.map((t) => stubEmbedding(t, 32).map((x) => Math.fround(x))));
    const sent = stub.requests.slice(before);
    expect(sent.map((r) => [r.path, r.headers.authorization, r.body.input.length, r.body.dimensions, r.body.model])).toEqual([
      [
        '/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21',
        'Bearer entra-token',
        256,
        32,
        'text-embedding-3-small',
      ],
      [
        '/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21',
        'Bearer entra-token',
        44,
        32,
        'text-embedding-3-small',
      ],
    ]);
  });

  it('uses the key only when given (the fallback), and needs one of the two', async () => {
    await createAzureOpenAIEmbedder(settings({ azureADTokenProvider: undefined, apiKey: 'k-123' })).embed(['x']);
    expect(stub.requests.at(-1)!.headers['api-key']).toBe('k-123');
    expect(() => createAzureOpenAIEmbedder(settings({ azureADTokenProvider: undefined }))).toThrow(/azureADTokenProvider .* or apiKey/);
  });

  it('refuses vectors of another size than the index expects', async () => {
    const client = new AzureOpenAI({ endpoint: stub.endpoint, deployment: 'ada', apiVersion: '2024-10-21', apiKey: 'k', maxRetries: 0 });
    const embedder = new OpenAIEmbedder(client, { model: 'ada', dimensions: 32, sendDimensions: false }); // the stub then answers 64
    await expect(embedder.embed(['x'])).rejects.toThrow(/returned 64 dimensions, the index expects 32/);
  });
});
