import { AzureOpenAI, type OpenAI } from 'openai';
import type { Embedder } from '../../ports/index.js';

export interface OpenAIEmbedderOptions {
  /** the model, or on Azure the embeddings deployment */
  model: string;
  dimensions: number;
  /** texts per request (Azure OpenAI accepts up to 2,048 inputs; default 256) */
  batchSize?: number;
  /** ask the model for `dimensions` (text-embedding-3-*); off for models with a fixed size (default true) */
  sendDimensions?: boolean;
}

/** Embeddings through the openai client (OpenAI or Azure OpenAI): batched requests, vectors in input order. */
export class OpenAIEmbedder implements Embedder {
  readonly dimensions: number;

  constructor(
    private readonly client: OpenAI,
    private readonly options: OpenAIEmbedderOptions,
  ) {
    this.dimensions = options.dimensions;
  }

  async embed(texts: readonly string[], options: { abortSignal?: AbortSignal } = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    const batchSize = this.options.batchSize ?? 256;
    for (let i = 0; i < texts.length; i += batchSize) {
      const input = texts.slice(i, i + batchSize).map((text) => (text.trim() === '' ? ' ' : text));
      const response = await this.client.embeddings.create(
        { model: this.options.model, input, ...(this.options.sendDimensions === false ? {} : { dimensions: this.dimensions }) },
        options.abortSignal ? { signal: options.abortSignal } : {},
      );
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== input.length) throw new Error(`embeddings: asked for ${input.length} vectors, got ${ordered.length}`);
      for (const item of ordered) {
        if (item.embedding.length !== this.dimensions)
          throw new Error(
            `embeddings: the model returned ${item.embedding.length} dimensions, the index expects ${this.dimensions} (EVALP_EMBEDDINGS_DIMENSIONS)`,
          );
        vectors.push(item.embedding);
      }
    }
    return vectors;
  }
}

export interface AzureOpenAIEmbedderSettings {
  /** AZURE_OPENAI_ENDPOINT */
  endpoint: string;
  /** AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT */
  deployment: string;
  /** AZURE_OPENAI_API_VERSION */
  apiVersion: string;
  dimensions: number;
  /** Microsoft Entra ID (getBearerTokenProvider(credential, 'https://cognitiveservices.azure.com/.default')) */
  azureADTokenProvider?: () => Promise<string>;
  /** AZURE_OPENAI_API_KEY: the explicit fallback */
  apiKey?: string;
  maxRetries?: number;
}

/** An Embedder on an Azure OpenAI embeddings deployment, with Entra ID tokens (or a key as the fallback). */
export function createAzureOpenAIEmbedder(settings: AzureOpenAIEmbedderSettings): OpenAIEmbedder {
  if (!settings.apiKey && !settings.azureADTokenProvider)
    throw new Error('createAzureOpenAIEmbedder needs azureADTokenProvider (Entra ID) or apiKey');
  const client = new AzureOpenAI({
    endpoint: settings.endpoint,
    deployment: settings.deployment,
    apiVersion: settings.apiVersion,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : { azureADTokenProvider: settings.azureADTokenProvider! }),
    maxRetries: settings.maxRetries ?? 3,
  });
  return new OpenAIEmbedder(client, { model: settings.deployment, dimensions: settings.dimensions });
}
