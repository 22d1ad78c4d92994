/**
 * A small history router: the server answers every non-API path with index.html, and the
 * client picks the page from `location.pathname`. `navigate` pushes a URL; `<Link>` is a real
 * anchor (middle-click, copy link, keyboard all work) that navigates in place on a plain click.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

if (typeof window !== "undefined") window.addEventListener("popstate", () => { for (const l of listeners) l(); });

export interface Location { path: string; query: URLSearchParams }

/** The current location; re-renders the caller when it changes. */
export function useLocation(): Location {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => { listeners.delete(l); };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** Matches "/brokers/:id" against a path; returns the named parts or null. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split("/").filter(Boolean);
  const s = path.split("/").filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(":")) params[p[i]!.slice(1)] = decodeURIComponent(s[i]!);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

export function Link(props: {
  href: string; children: ComponentChildren; class?: string; id?: string;
  "aria-current"?: "page" | undefined; "aria-label"?: string;
}) {
  const { href, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/** A `next` parameter only ever names a path of this app (never another origin). */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
