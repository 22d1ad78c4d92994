/**
 * The app shell: finds out who is signed in (GET /auth/me), loads their preferences, and shows
 * either the sign-in pages or the navigation with the page of the current URL.
 */
import type { ComponentChildren, ComponentType } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError } from "./api/client.ts";
import { ErrorNote, Loading } from "./components/ui.tsx";
import { Link, matchRoute, navigate, safeNext, useLocation } from "./lib/router.tsx";
import { AppContext, applyTheme, type AppState, type Me, type Prefs } from "./lib/store.ts";
import { AssetPage } from "./pages/asset.tsx";
import { AssetsPage } from "./pages/assets.tsx";
import { BrokerPage } from "./pages/broker.tsx";
import { BrokersPage } from "./pages/brokers.tsx";
import { DashboardPage } from "./pages/dashboard.tsx";
import { FxPage } from "./pages/fx.tsx";
import { ImportPage } from "./pages/import.tsx";
import { LoginPage } from "./pages/login.tsx";
import { SettingsPage } from "./pages/settings.tsx";
import { TransactionsPage } from "./pages/transactions.tsx";
import { UploadsPage } from "./pages/uploads.tsx";
import { loadLanguage, msg, t } from "./lib/i18n.ts";
import { lazyPage } from "./lib/lazy.tsx";

// Investor pages: loaded on first visit (their own chunks), the first load stays small.
const HoldingsPage = lazyPage(() => import("./pages/holdings.tsx").then((m) => m.HoldingsPage));
const PerformancePage = lazyPage(() => import("./pages/performance.tsx").then((m) => m.PerformancePage));
const IncomePage = lazyPage(() => import("./pages/income.tsx").then((m) => m.IncomePage));
const GainsPage = lazyPage(() => import("./pages/gains.tsx").then((m) => m.GainsPage));
const RiskPage = lazyPage(() => import("./pages/risk.tsx").then((m) => m.RiskPage));
const ToolsPage = lazyPage(() => import("./pages/tools.tsx").then((m) => m.ToolsPage));
const AdminPage = lazyPage(() => import("./pages/admin.tsx").then((m) => m.AdminPage));
const AiAccessPage = lazyPage(() => import("./pages/ai-access.tsx").then((m) => m.AiAccessPage));

/** Client routes, first match wins. Params are passed as props. */
const ROUTES: [string, ComponentType<any>][] = [
  ["/", DashboardPage],
  ["/holdings", HoldingsPage],
  ["/performance", PerformancePage],
  ["/income", IncomePage],
  ["/gains", GainsPage],
  ["/risk", RiskPage],
  ["/tools", ToolsPage],
  ["/admin", AdminPage],
  ["/brokers", BrokersPage],
  ["/brokers/:id", BrokerPage],
  ["/transactions", TransactionsPage],
  ["/assets", AssetsPage],
  ["/assets/:id", AssetPage],
  ["/fx", FxPage],
  ["/fx/:pair", FxPage],
  ["/import", ImportPage],
  ["/uploads", UploadsPage],
  ["/settings", SettingsPage],
  ["/settings/ai-access", AiAccessPage],
];

const NAV: [string, string][] = [
  ["/", msg("Dashboard")],
  ["/holdings", msg("Holdings")],
  ["/performance", msg("Performance")],
  ["/income", msg("Income")],
  ["/gains", msg("Realised gains")],
  ["/risk", msg("Risk lab")],
  ["/tools", msg("Tools")],
  ["/brokers", msg("Brokers")],
  ["/transactions", msg("Transactions")],
  ["/assets", msg("Assets")],
  ["/fx", msg("FX")],
  ["/import", msg("Import")],
  ["/uploads", msg("Uploads")],
  ["/settings", msg("Settings")],
];

const PRIVACY_KEY = "pt.privacy";

type Session = { state: "loading" } | { state: "anonymous" } | { state: "error"; error: unknown } | { state: "in"; me: Me; prefs: Prefs };

export function App() {
  const loc = useLocation();
  const [session, setSession] = useState<Session>({ state: "loading" });
  const [privacy, setPrivacyState] = useState(() => localStorage.getItem(PRIVACY_KEY) === "1");

  const loadSession = async () => {
    try {
      // Both at once: the preferences do not wait for the identity round trip.
      const [me, settings] = await Promise.allSettled([api.get("/auth/me", { noRedirect: true }), api.get("/settings/user", { noRedirect: true })]);
      if (me.status === "rejected") throw me.reason;
      if (settings.status === "rejected") throw settings.reason;
      const { user } = me.value;
      const prefs = settings.value;
      applyTheme(prefs.theme);
      await loadLanguage(prefs.language);
      setSession({ state: "in", me: user, prefs });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setSession({ state: "anonymous" });
      else setSession({ state: "error", error: e });
    }
  };
  useEffect(() => { void loadSession(); }, []);

  const appState = useMemo<AppState | null>(() => {
    if (session.state !== "in") return null;
    return {
      me: session.me,
      prefs: session.prefs,
      privacy,
      setPrivacy(on) { localStorage.setItem(PRIVACY_KEY, on ? "1" : "0"); setPrivacyState(on); },
      async setPrefs(p) {
        const prefs = { ...session.prefs, ...p };
        applyTheme(prefs.theme);
        // The new language's catalog may still be fetched: the tree re-renders once it is here.
        await loadLanguage(prefs.language);
        setSession({ ...session, prefs });
      },
      async logout() {
        try { await api.post("/auth/logout"); } finally {
          setSession({ state: "anonymous" });
          navigate("/login", { replace: true });
        }
      },
    };
  }, [session, privacy]);

  useEffect(() => {
    if (appState) document.documentElement.lang = appState.prefs.language || "en";
  }, [appState?.prefs.language]);

  if (session.state === "loading") return <main class="center"><Loading /></main>;
  if (session.state === "error") return <main class="center"><ErrorNote error={session.error} title={t("The server could not be reached.")} /></main>;

  if (session.state === "anonymous") {
    if (loc.path !== "/login" && loc.path !== "/register") {
      const next = loc.path + location.search;
      queueMicrotask(() => navigate(`/login?next=${encodeURIComponent(next)}`, { replace: true }));
      return null;
    }
    return <LoginPage mode={loc.path === "/register" ? "register" : "login"} onSignedIn={() => void loadSession()} />;
  }

  if (loc.path === "/login" || loc.path === "/register") {
    queueMicrotask(() => navigate(safeNext(loc.query.get("next")), { replace: true }));
    return null;
  }

  let page = <NotFound />;
  for (const [pattern, Component] of ROUTES) {
    const params = matchRoute(pattern, loc.path);
    if (params) { page = <Component key={loc.path} {...params} />; break; }
  }

  return (
    <AppContext.Provider value={appState}>
      <a class="skip" href="#main">{t("Skip to content")}</a>
      <header class="topbar">
        <Link href="/" class="brand">Portfolio Tracker</Link>
        <Navigation path={loc.path} />
        <div class="user">
          <button type="button" class="ghost" aria-pressed={privacy} onClick={() => appState!.setPrivacy(!privacy)}
            title={t("Hide amounts on screen")}>
            {privacy ? t("Show amounts") : t("Hide amounts")}
          </button>
          <span class="muted username">{session.me.username}</span>
          <button type="button" class="ghost" onClick={() => void appState!.logout()}>{t("Log out")}</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>{page}</main>
    </AppContext.Provider>
  );
}

/**
 * The navigation with its phone menu: on a phone the list folds behind a menu button (styles.css)
 * and opens as a full-width list, so no entry sits off-screen; following a link folds it again.
 */
function Navigation(props: { path: string }) {
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [props.path]);
  const here = NAV.find(([href]) => isCurrent(href, props.path));
  return (
    <MainNav path={props.path} open={open} onPick={() => setOpen(false)} toggle={
      <button type="button" class="menu-button" aria-expanded={open} aria-controls="main-nav-list" onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span> {t("Menu")}{here ? <span class="muted"> · {t(here[1])}</span> : null}
      </button>
    } />
  );
}

const isCurrent = (href: string, path: string) => href === "/" ? path === "/" : path === href || path.startsWith(href + "/");

/** The top-level pages, in the user's language; the current one is marked for assistive technology. */
export function MainNav(props: { path: string; open?: boolean; toggle?: ComponentChildren; onPick?(): void }) {
  return (
    <nav aria-label={t("Main")} class={props.open ? "open" : undefined}>
      {props.toggle}
      <ul id="main-nav-list" onClick={props.onPick}>
        {NAV.map(([href, label]) => (
          <li key={href}><Link href={href} aria-current={isCurrent(href, props.path) ? "page" : undefined}>{t(label)}</Link></li>
        ))}
      </ul>
    </nav>
  );
}

function NotFound() {
  return (
    <section class="page">
      <h1>{t("Page not found")}</h1>
      <p>{t("There is no page at this address.")} <Link href="/">{t("Back to the dashboard")}</Link></p>
    </section>
  );
}
