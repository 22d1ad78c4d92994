/** The body length a request declares (`Content-Length`); null when it declares none (a chunked body) or a malformed one. */
export function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  return header === null || !/^\d+$/.test(header.trim()) ? null : Number(header);
}
