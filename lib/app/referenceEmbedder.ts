import OpenAI from 'openai';
import { OpenAIEmbedder, createAzureOpenAIEmbedder } from '../adapters/azure/index.js';
import type { Embedder } from '../ports/index.js';

/**
 * The embedder for the `embedding_cosine` reference metric, from settings, or undefined (the metric is then
 * skipped with a reason): Azure OpenAI when AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT and
 * AZURE_OPENAI_API_VERSION are set (Entra ID token, or AZURE_OPENAI_API_KEY); else OpenAI (or any compatible server
 * at OPENAI_BASE_URL) when EVALP_EMBEDDINGS_MODEL and OPENAI_API_KEY are set. Dimensions: EVALP_EMBEDDINGS_DIMENSIONS
 * (default 1536).
 */
export function referenceEmbedderFrom(
  env: Readonly<Record<string, string | undefined>>,
  azureADTokenProvider?: () => Promise<string>,
): Embedder | undefined {
  const dimensions = Number(env.EVALP_EMBEDDINGS_DIMENSIONS?.trim() || 1536);
  if (!(Number.isInteger(dimensions) && dimensions > 1)) return undefined;
  const endpoint = env.AZURE_OPENAI_ENDPOINT?.trim();
  const deployment = env.AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT?.trim();
  const apiVersion = env.AZURE_OPENAI_API_VERSION?.trim();
  if (endpoint && deployment && apiVersion) {
    const apiKey = env.AZURE_OPENAI_API_KEY?.trim();
    if (!apiKey && !azureADTokenProvider) return undefined;
    return createAzureOpenAIEmbedder({
      endpoint,
      deployment,
      apiVersion,
      dimensions,
      ...(apiKey ? { apiKey } : { azureADTokenProvider: azureADTokenProvider! }),
    });
  }
  const model = env.EVALP_EMBEDDINGS_MODEL?.trim();
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (model && apiKey) {
    const baseURL = env.OPENAI_BASE_URL?.trim();
    const client = new OpenAI({ apiKey, ...(baseURL ? { baseURL } : {}), maxRetries: 3 });
    return new OpenAIEmbedder(client, { model, dimensions });
  }
  return undefined;
}
