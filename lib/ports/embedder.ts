/**
 * Text embeddings for vector search (near-duplicate test cases in the AI Search gold-set index). Azure: Azure
 * OpenAI embeddings (lib/adapters/azure/searchEmbeddings.ts). Vectors come back in the order of `texts`, each of
 * `dimensions` numbers.
 */
export interface Embedder {
  readonly dimensions: number;
  embed(texts: readonly string[], options?: { abortSignal?: AbortSignal }): Promise<number[][]>;
}
