/**
 * The one start-up block of an end-to-end test file: the real server (useApi: a child process on
 * a free port with its own data dir) and one headless Chromium (Debian's `chromium` package,
 * driven by playwright-core), shared by the file's tests. Screenshots go to
 * .test-tmp/screenshots/ (gitignored) for people to review; the documentation's screenshots are
 * written only when asked, with SCREENSHOTS=docs/screenshots, since they are tracked files.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll } from "bun:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { ApiClient } from "./client.ts";
import { ROOT, useApi, type UsedApi } from "./server.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(ROOT, ".test-tmp", "screenshots");
export const DESKTOP = { width: 1280, height: 860 };
/** The folder of the documentation's screenshots when SCREENSHOTS names one, else null (not written). */
export const DOC_SCREENSHOTS = process.env.SCREENSHOTS ? resolve(ROOT, process.env.SCREENSHOTS) : null;
/** What a documentation screenshot shows: the top 1280×800 of the page, so the files stay small. */
const DOC_CLIP = { x: 0, y: 0, width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Chromium flags: no sandbox as root in CI, and no background traffic to the closed network (it would be refused, many times a start). */
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps"];

/** Debian's Chromium, headless, with the flags above (also the page-speed bench's browser, bench/web-pages.ts). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export interface UsedBrowser {
  readonly api: UsedApi;
  readonly browser: Browser;
  /** A new page (own cookies) signed in as `user` (a name given to useBrowser), or anonymous. */
  page(opts?: { user?: string; viewport?: { width: number; height: number } }): Promise<Page>;
  /** Console errors and uncaught page errors seen so far, on every page of this file. */
  readonly errors: string[];
  /** Saves a full-page screenshot as <file prefix>-<name>.png. */
  shot(page: Page, name: string): Promise<string>;
  /** Saves the top 1280×800 of a desktop page as <SCREENSHOTS>/<name>.png, when SCREENSHOTS is set. */
  docShot(page: Page, name: string): Promise<string | null>;
  /** The app's URL for a path. */
  url(path?: string): string;
}

export function useBrowser(opts: { name: string; users?: string[]; env?: Record<string, string> }): UsedBrowser {
  const api = useApi({ users: opts.users, env: opts.env });
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    if (DOC_SCREENSHOTS) mkdirSync(DOC_SCREENSHOTS, { recursive: true });
  }, 30_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
  });
  const need = () => {
    if (!browser) throw new Error("useBrowser: the browser starts in beforeAll");
    return browser;
  };
  return {
    api,
    get browser() { return need(); },
    errors,
    url: (path = "/") => api.server.url + path,
    async page(o = {}) {
      const context = await need().newContext({ viewport: o.viewport ?? DESKTOP, locale: "en-US", timezoneId: "UTC" });
      contexts.push(context);
      if (o.user) {
        const client: ApiClient | undefined = api.as[o.user];
        if (!client) throw new Error(`useBrowser: no user "${o.user}"`);
        const [name, value] = client.cookie.split("=");
        await context.addCookies([{ name: name!, value: value!, url: api.server.url }]);
      }
      const page = await context.newPage();
      page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
      page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
      page.on("dialog", (d) => { errors.push(`dialog: ${d.type()} ${d.message()}`); void d.dismiss(); });
      page.setDefaultTimeout(15_000);
      return page;
    },
    async shot(page, name) {
      const file = join(SCREENSHOTS, `${opts.name}-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async docShot(page, name) {
      if (!DOC_SCREENSHOTS) return null;
      const file = join(DOC_SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, clip: DOC_CLIP, animations: "disabled", caret: "hide" });
      return file;
    },
  };
}
