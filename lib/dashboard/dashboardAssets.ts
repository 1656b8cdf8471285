import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { z } from 'zod';

/**
 * The Content-Security-Policy of every dashboard answer: only the app's own scripts and styles (no inline code),
 * API calls to itself, Entra ID sign-in (login.microsoftonline.com) when configured, no framing, no plugins.
 */
export const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' https://login.microsoftonline.com",
  'frame-src https://login.microsoftonline.com',
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Files Vite names with a content hash (`assets/index-4f3c2a1b.js`): cached for a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and config.json: always revalidated, so a new deployment is picked up at once. */
const REVALIDATE = 'no-cache';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** How the browser signs in: API keys always; Entra ID (MSAL) when the platform has an SPA app registration. */
export const DashboardConfigSchema = z.object({
  entra: z.object({ client_id: z.string(), tenant_id: z.string(), scopes: z.array(z.string()) }).nullable(),
});
export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

/**
 * `EVALP_DASHBOARD_ENTRA_CLIENT_ID` (the SPA registration), tenant from `EVALP_AUTH_ENTRA_TENANT_ID`, scopes from
 * `EVALP_DASHBOARD_ENTRA_SCOPES` (comma separated; default `api://<first EVALP_AUTH_ENTRA_AUDIENCE>/.default`).
 */
export function dashboardConfigFromEnv(env: Readonly<Record<string, string | undefined>>): DashboardConfig {
  const clientId = env.EVALP_DASHBOARD_ENTRA_CLIENT_ID?.trim();
  const tenantId = env.EVALP_AUTH_ENTRA_TENANT_ID?.trim();
  if (!clientId || !tenantId) return { entra: null };
  const listed = (env.EVALP_DASHBOARD_ENTRA_SCOPES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const audience = (env.EVALP_AUTH_ENTRA_AUDIENCE ?? '')
    .split(',')
    .map((s) => s.trim())
    .find(Boolean);
  const fallback = audience ? [`${audience.startsWith('api://') ? audience : `api://${audience}`}/.default`] : [];
  return { entra: { client_id: clientId, tenant_id: tenantId, scopes: listed.length ? listed : fallback } };
}

export interface AssetAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/**
 * Answers a GET for the dashboard from its built files (`dist/web`, `npm run build:web`): `/` and `/index.html`
 * give the page, `/assets/<hashed file>` a long-cached asset, `/config.json` the sign-in configuration; anything
 * else 404. Paths under `api/` are never the dashboard's (an unknown API path gets a problem+json 404). Paths that
 * climb out of the directory are refused.
 */
export async function dashboardAsset(root: string, path: string | undefined, config: DashboardConfig): Promise<AssetAnswer> {
  const rel = (path ?? '').replace(/^\/+/, '');
  if (rel === 'api' || rel.startsWith('api/')) return notFound(`no API route serves /${rel}`, true);
  if (rel === 'config.json')
    return {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'content-type': CONTENT_TYPES['.json']!, 'cache-control': REVALIDATE },
      body: JSON.stringify(config),
    };
  const file = rel === '' ? 'index.html' : rel;
  const full = normalize(join(root, file));
  if (!full.startsWith(root.endsWith(sep) ? root : root + sep)) return notFound(`/${rel} is not a dashboard file`, false);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(full);
  } catch {
    if (file === 'index.html') {
      return {
        status: 503,
        headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        body: `The dashboard is not built: run \`npm run build:web\` (npm install does it) to create ${root}.\n`,
      };
    }
    return notFound(`/${rel} is not a dashboard file`, false);
  }
  const type = CONTENT_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream';
  const cache = file.startsWith('assets/') ? IMMUTABLE : REVALIDATE;
  return { status: 200, headers: { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': cache }, body: bytes };
}

function notFound(detail: string, api: boolean): AssetAnswer {
  return {
    status: 404,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': api ? 'application/problem+json' : 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    },
    body: api ? JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail }) : `${detail}\n`,
  };
}
