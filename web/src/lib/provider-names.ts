/**
 * Names of the price and exchange-rate providers, as their plugins give them: pages show "Yahoo
 * Finance" where the API speaks `yfinance`. The two lists are read once per page load and shared by
 * every page; a code not in them (a plugin since removed, a test-only provider) shows as is.
 */
import { api } from "../api/client.ts";
import { useAsync } from "./use-async.ts";

type Names = ReadonlyMap<string, string>;
const loaded: { fx?: Promise<Names>; asset?: Promise<Names> } = {};

function load(kind: "fx" | "asset"): Promise<Names> {
  const list = kind === "fx" ? api.get("/fx/providers") : api.get("/assets/provider");
  // A failed read is forgotten so the next page asks again; until then the codes show.
  const names = list.then((ps) => new Map(ps.map((p) => [p.code, p.name] as const)), () => {
    delete loaded[kind];
    return new Map<string, string>();
  });
  loaded[kind] = names;
  return names;
}

/** A function giving a provider's name from its code (the code until the names have arrived). */
export function useProviderNames(kind: "fx" | "asset"): (code: string | null | undefined) => string {
  const names = useAsync(() => loaded[kind] ?? load(kind), [kind]);
  return (code) => (code ? names.data?.get(code) ?? code : "");
}
