import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export interface Async<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Runs the loader again (after a write). */
  reload(): void;
}

/**
 * Runs `load` when `deps` change and keeps its answer; an older answer arriving after a newer
 * request is dropped (the signal aborts it), so fast filter changes never show stale rows.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Async<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const controller = new AbortController();
    const id = ++latest.current;
    setState((s) => ({ data: s.data, loading: true }));
    load(controller.signal).then(
      (data) => { if (id === latest.current) setState({ data, loading: false }); },
      (error) => {
        if ((error as Error)?.name === "AbortError" || id !== latest.current) return;
        setState({ error, loading: false });
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
