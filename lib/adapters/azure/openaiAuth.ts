import type { TokenCredential } from '@azure/identity';

/** The scope of Azure OpenAI (Cognitive Services) data-plane tokens. */
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

/** A Microsoft Entra ID bearer-token provider, as `AzureOpenAI({ azureADTokenProvider })` takes it. */
export type AzureADTokenProvider = () => Promise<string>;

export interface AzureOpenAITokenProviderOptions {
  /** default: `new DefaultAzureCredential()` (managed identity in Azure, with AZURE_CLIENT_ID for a user-assigned one; `az login` locally) */
  credential?: TokenCredential;
  scope?: string;
}

/**
 * `getBearerTokenProvider(credential, 'https://cognitiveservices.azure.com/.default')` for the judge
 * (`createJudge(config, env, { azureADTokenProvider })`) and the openai target (`TargetRegistry({ azureADTokenProvider })`).
 * @azure/identity is loaded at the first token request, so a host that never calls Azure OpenAI never loads it;
 * tokens are cached and refreshed by the provider.
 */
export function azureOpenAITokenProvider(options: AzureOpenAITokenProviderOptions = {}): AzureADTokenProvider {
  let provider: Promise<AzureADTokenProvider> | undefined;
  return async () => {
    provider ??= import('@azure/identity').then(({ DefaultAzureCredential, getBearerTokenProvider }) =>
      getBearerTokenProvider(options.credential ?? new DefaultAzureCredential(), options.scope ?? COGNITIVE_SERVICES_SCOPE),
    );
    return (await provider)();
  };
}
