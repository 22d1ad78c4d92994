/**
 * A request's parsed URL, parsed once: the access log, the write guard, the browser headers, the
 * token check and the error handler each need the path of the same request.
 */
const parsed = new WeakMap<Request, URL>();

export function requestUrl(request: Request): URL {
  let url = parsed.get(request);
  if (!url) {
    url = new URL(request.url);
    parsed.set(request, url);
  }
  return url;
}

export function requestPath(request: Request): string {
  return requestUrl(request).pathname;
}
