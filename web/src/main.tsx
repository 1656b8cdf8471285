import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { ApiProblem, api, useCredential } from './api.js';
import { can, entraSession, keyStore, loadConfig, type DashboardConfig, type EntraSession } from './auth.js';
import { href, useRoute } from './router.js';
import { Problem } from './components/Problem.js';
import { RunsView } from './views/Runs.js';
import { RunDetailView } from './views/RunDetail.js';
import { CompareView } from './views/Compare.js';
import { TrendsView } from './views/Trends.js';
import { GoldSetView } from './views/GoldSet.js';
import { AlertsView, ClientsView, DeadLettersView, TargetsView } from './views/Admin.js';
import type { Me, Role } from './types.js';

/** The views and the role each needs (the API enforces the same; this only hides what would be refused). */
const NAV: Array<{ path: string; label: string; role: Role }> = [
  { path: 'runs', label: 'Runs', role: 'reader' },
  { path: 'compare', label: 'Compare', role: 'reader' },
  { path: 'trends', label: 'Trends', role: 'reader' },
  { path: 'gold', label: 'Gold set', role: 'reader' },
  { path: 'targets', label: 'Targets', role: 'reader' },
  { path: 'clients', label: 'Clients', role: 'reader' },
  { path: 'alerts', label: 'Alerts', role: 'reader' },
  { path: 'dead-letters', label: 'Dead letters', role: 'platform-admin' },
];

function App() {
  const route = useRoute();
  const [config, setConfig] = useState<DashboardConfig | undefined>();
  const [entra, setEntra] = useState<EntraSession | undefined>();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>();

  const identify = async (): Promise<void> => {
    try {
      setMe((await api<Me>('GET', 'v1/me')).body);
      setError(undefined);
    } catch (e) {
      setMe(null);
      if (!(e instanceof ApiProblem && e.status === 401 && !keyStore.get())) setError(e as Error);
    }
  };

  useEffect(() => {
    void (async () => {
      const cfg = await loadConfig();
      setConfig(cfg);
      const session = cfg.entra ? await entraSession(cfg.entra).catch(() => undefined) : undefined;
      setEntra(session);
      useCredential(
        async () => {
          const key = keyStore.get();
          if (key) return `Bearer ${key}`;
          const token = session ? await session.token().catch(() => undefined) : undefined;
          return token ? `Bearer ${token}` : undefined;
        },
        () => setMe(null),
      );
      if (keyStore.get() || (session && (await session.token().catch(() => undefined)))) await identify();
      else setMe(null);
    })();
  }, []);

  const signOut = (): void => {
    keyStore.clear();
    setMe(null);
    if (entra && me?.kind === 'entra-id') void entra.signOut();
  };

  if (me === undefined || !config) return <p role="status">Loading…</p>;
  if (me === null)
    return (
      <main id="main" class="signin">
        <h1>EvalPlatform</h1>
        <SignIn
          entra={entra}
          error={error}
          onKey={async (key) => {
            keyStore.set(key);
            await identify();
          }}
        />
      </main>
    );

  const section = route.path[0] ?? 'runs';
  const allowed = NAV.filter((n) => can(me, n.role));
  const view = (() => {
    if (!allowed.some((n) => n.path === section))
      return <Problem error={new Error(`"${section}" is not a view you may open (your roles: ${me.roles.join(', ')}).`)} />;
    switch (section) {
      case 'runs':
        return route.path[1] ? <RunDetailView route={route} /> : <RunsView route={route} />;
      case 'compare':
        return <CompareView route={route} />;
      case 'trends':
        return <TrendsView route={route} />;
      case 'gold':
        return <GoldSetView route={route} me={me} />;
      case 'targets':
        return <TargetsView />;
      case 'clients':
        return <ClientsView />;
      case 'alerts':
        return <AlertsView me={me} />;
      case 'dead-letters':
        return <DeadLettersView />;
      default:
        return null;
    }
  })();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">EvalPlatform</span>
        <nav aria-label="Views">
          <ul>
            {allowed.map((n) => (
              <li key={n.path}>
                <a href={href(n.path)} aria-current={section === n.path ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who" data-testid="who">
          {me.name} ({me.roles.join(', ')})
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main">{view}</main>
    </>
  );
}

function SignIn({ entra, error, onKey }: { entra: EntraSession | undefined; error: Error | undefined; onKey(key: string): Promise<void> }) {
  const [key, setKey] = useState('');
  return (
    <>
      {entra && (
        <p>
          <button type="button" onClick={() => void entra.signIn()}>
            Sign in with Microsoft Entra ID
          </button>
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void onKey(key.trim());
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          placeholder="evalp_…"
        />
        <button type="submit" disabled={!key.trim()}>
          Sign in
        </button>
        <p class="muted">
          The key is kept for this tab only (sessionStorage). `npm start` prints the first admin key; `evalp keys create` makes more.
        </p>
      </form>
      <Problem error={error} />
    </>
  );
}

render(<App />, document.getElementById('app')!);
