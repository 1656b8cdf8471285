import { useEffect, useState } from 'preact/hooks';

/** Hash routes (`#/runs/abc?tab=failures`): the function app serves one page, the browser keeps the view. */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = hash.split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const on = (): void => setRoute(current());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== '') as Array<[string, string]>).toString();
  return `#/${path}${q ? `?${q}` : ''}`;
}

export function navigate(path: string, query: Record<string, string | undefined> = {}): void {
  window.location.hash = href(path, query);
}
