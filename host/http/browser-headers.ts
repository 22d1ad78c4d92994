/**
 * Headers that tell a browser how to treat every answer of this server (docs/security.md
 * "Browser headers"): no script but the app's own files, no framing by another site, no MIME
 * sniffing, no full URL leaked to other sites.
 */
import { requestPath } from "./request-url.ts";

/**
 * The web app and every API answer: scripts, styles, images, fonts and connections only from this
 * origin (the app is one bundle of hashed files, no inline script and no third-party host); images
 * may be `data:` URLs (chart exports, icons); no plugin content, no `<base>` rewrite, forms post only
 * here, and no page of another site may frame it.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The API reference pages (Swagger UI, ReDoc): their bundles set styles inline and ReDoc's search
 * runs in a worker made from a `blob:` URL. Still no inline script and no framing.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const DOCS_PAGES = /^\/api\/v1\/(docs|redoc)\/?$/;

/**
 * Adds the browser headers to a response, unless its handler set its own policy. Headers of a
 * response built from a static body are immutable in Bun (a `Response` in `routes`): such a
 * response is copied with its body unread.
 */
export function withBrowserHeaders(request: Request, response: Response): Response {
  const path = requestPath(request);
  const headers: Record<string, string> = {
    "content-security-policy": DOCS_PAGES.test(path) ? DOCS_CSP : APP_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
  };
  try {
    for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) if (!copy.headers.has(name)) copy.headers.set(name, value);
    return copy;
  }
}
