/**
 * Pages loaded on first visit: the app is built with chunk splitting (host/http/web-assets.ts),
 * so a dynamic import becomes its own file and the first load stays small (docs/web.md).
 */
import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ErrorNote, Loading } from "../components/ui.tsx";
import { t } from "./i18n.ts";

export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  return function LazyPage(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    const [error, setError] = useState<unknown>(null);
    useEffect(() => {
      if (Component) return;
      let live = true;
      pending ??= load().then((c) => (loaded = c), (e) => { pending = undefined; throw e; });
      pending.then((c) => { if (live) setComponent(() => c); }, (e) => { if (live) setError(e); });
      return () => { live = false; };
    }, []);
    if (Component) return <Component {...props} />;
    if (error) return <ErrorNote error={error} title={t("This page could not be loaded.")} />;
    return <Loading />;
  };
}
