import { errorResponse } from "./errors.ts";
import { declaredLength } from "./request-body.ts";
import { requestPath } from "./request-url.ts";

/**
 * Cross-site request forgery (docs/security.md "Cross-site writes"). A page of another site can
 * make a signed-in browser send a form (`application/x-www-form-urlencoded`, `multipart/form-data`
 * or `text/plain`) with its cookies, but not a JSON body: browsers ask the server first (CORS
 * preflight) for that, and this server answers no cross-origin request. So a write's body must be
 * JSON, or multipart on the upload routes; and a write that relies on the session cookie must come
 * from this server's own pages (its `Origin`), which catches the forms that remain (multipart
 * uploads, bodiless posts).
 */

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Media types a write body may have; multipart only on the routes that take files. */
const JSON_TYPE = "application/json";
const MULTIPART_TYPE = "multipart/form-data";

function mediaType(request: Request): string | null {
  const header = request.headers.get("content-type");
  return header === null ? null : header.split(";")[0]!.trim().toLowerCase();
}

/** A body of undeclared length (chunked) counts as one. */
function hasBody(request: Request): boolean {
  if (request.body === null) return false;
  const length = declaredLength(request);
  return length === null || length > 0;
}

/** The host (and port) the browser addressed: the Host header, or the forwarded one behind a trusted proxy. */
function addressedHosts(request: Request, behindTrustedProxy: boolean): string[] {
  const hosts = [request.headers.get("host")];
  if (behindTrustedProxy) hosts.push(request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() ?? null);
  return hosts.filter((h): h is string => !!h).map((h) => h.toLowerCase());
}

function sameOrigin(origin: string, hosts: string[]): boolean {
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    // A Host without a port (a proxy passing nginx's `$host`) names the host only: any port of it.
    return hosts.some((h) => h === url.host.toLowerCase() || (!/:\d+$/.test(h) && !h.startsWith("[") && h === url.hostname.toLowerCase()));
  } catch {
    return false;
  }
}

/**
 * 415 for a write whose body is neither JSON nor (on `multipartPaths`) multipart; 403 for a
 * cookie-authenticated write sent by another site's page. Null lets the request through. Requests
 * with `Authorization` (personal access tokens) are not a browser's ambient credentials: only
 * their body type is checked.
 */
export function crossSiteWriteRefusal(request: Request, options: { isMultipartPath: (path: string) => boolean; behindTrustedProxy: boolean }): Response | null {
  if (!WRITE_METHODS.has(request.method)) return null;
  const path = requestPath(request);
  const type = mediaType(request);
  if (hasBody(request) || type !== null) {
    const allowed = type === JSON_TYPE || (type === MULTIPART_TYPE && options.isMultipartPath(path));
    if (!allowed) {
      const expected = options.isMultipartPath(path) ? `${MULTIPART_TYPE} (or ${JSON_TYPE})` : JSON_TYPE;
      return errorResponse(415, {
        detail: `This request's body must be sent as ${expected}; got ${type ?? "no Content-Type"}`,
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
    }
  }
  if (request.headers.has("authorization")) return null;
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const crossSite = origin !== null
    ? !sameOrigin(origin, addressedHosts(request, options.behindTrustedProxy))
    : fetchSite === "cross-site" || fetchSite === "same-site";
  if (!crossSite) return null;
  return errorResponse(403, {
    detail: "A write signed in by cookie must come from this server's own pages; this one came from another site",
    code: "CROSS_SITE_REQUEST",
  });
}
