import type { Me } from './types.js';

/** The sign-in configuration the dashboard function serves (`/config.json`). */
export interface DashboardConfig {
  entra: { client_id: string; tenant_id: string; scopes: string[] } | null;
}

const KEY_ITEM = 'evalp.apiKey';

/** The API key lives in sessionStorage: this tab only, gone when it closes. */
export const keyStore = {
  get: (): string | null => sessionStorage.getItem(KEY_ITEM),
  set: (key: string): void => sessionStorage.setItem(KEY_ITEM, key),
  clear: (): void => sessionStorage.removeItem(KEY_ITEM),
};

export async function loadConfig(): Promise<DashboardConfig> {
  try {
    const res = await fetch('/config.json', { headers: { accept: 'application/json' } });
    return res.ok ? ((await res.json()) as DashboardConfig) : { entra: null };
  } catch {
    return { entra: null };
  }
}

/** Entra ID through MSAL (loaded only when configured): sign-in by redirect, tokens silently afterwards. */
export interface EntraSession {
  signIn(): Promise<void>;
  signOut(): Promise<void>;
  /** an access token for the API, or undefined when nobody is signed in */
  token(): Promise<string | undefined>;
}

export async function entraSession(config: NonNullable<DashboardConfig['entra']>): Promise<EntraSession> {
  const msal = await import('@azure/msal-browser');
  const app = new msal.PublicClientApplication({
    auth: {
      clientId: config.client_id,
      authority: `https://login.microsoftonline.com/${config.tenant_id}`,
      redirectUri: window.location.origin + '/',
    },
    cache: { cacheLocation: 'sessionStorage' },
  });
  await app.initialize();
  const redirect = await app.handleRedirectPromise();
  if (redirect?.account) app.setActiveAccount(redirect.account);
  const account = () => app.getActiveAccount() ?? app.getAllAccounts()[0];
  return {
    signIn: () => app.loginRedirect({ scopes: config.scopes }),
    signOut: () => app.logoutRedirect(),
    token: async () => {
      const a = account();
      if (!a) return undefined;
      try {
        return (await app.acquireTokenSilent({ scopes: config.scopes, account: a })).accessToken;
      } catch (err) {
        if (err instanceof msal.InteractionRequiredAuthError) await app.acquireTokenRedirect({ scopes: config.scopes, account: a });
        throw err;
      }
    },
  };
}

/** What a principal may do, from its roles (the API enforces the same: lib/api/roles.ts). */
export function can(me: Me | null, role: Me['roles'][number]): boolean {
  if (!me) return false;
  return role === 'reader' ? me.roles.length > 0 : me.roles.includes(role);
}
