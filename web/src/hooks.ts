import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiProblem | Error | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Loads with `load` whenever `deps` change; with `pollMs` (a period, or one computed from the data), reloads on that
 * period while `keepPolling(data)` holds (a running run's progress). Answers that arrive after the view moved on are dropped.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
  options: { pollMs?: number | ((data: T) => number); keepPolling?: (data: T) => boolean } = {},
): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiProblem | Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const generation = useRef(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    const mine = ++generation.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoading(true);
    load()
      .then((d) => {
        if (mine !== generation.current) return;
        setData(d);
        setError(undefined);
        const period = typeof options.pollMs === 'function' ? options.pollMs(d) : options.pollMs;
        if (period && (!options.keepPolling || options.keepPolling(d))) timer = setTimeout(() => setTick((t) => t + 1), period);
      })
      .catch((e: unknown) => {
        if (mine !== generation.current) return;
        setError(e instanceof Error ? e : new Error(String(e)));
      })
      .finally(() => {
        if (mine === generation.current) setLoading(false);
      });
    return () => clearTimeout(timer);
  }, [...deps, tick]);
  return { data, error, loading, reload };
}
