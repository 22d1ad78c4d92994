/**
 * The operations of the served OpenAPI document, for tests that call every one of them
 * (test/api/http/error-statuses.test.ts, wrong-types.test.ts).
 */
export interface Operation { method: string; path: string; op: any }

/** Every operation of `/openapi.json`, its path without the API prefix. */
export async function loadOperations(base: string): Promise<Operation[]> {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if (item[method]) operations.push({ method: method.toUpperCase(), path: path.replace(/^\/api\/v1/, ""), op: item[method] });
    }
  }
  return operations;
}

/** The statuses an operation documents. */
export const documented = (op: any): number[] => Object.keys(op.responses ?? {}).map(Number);
/** The documented example of its JSON request body, if any. */
export const example = (op: any): unknown => op.requestBody?.content?.["application/json"]?.example;

/** The one error body of docs/errors.md: `{detail, code, params?}`, `detail` a list of issues only on 422. */
export function isErrorBody(text: string, status: number): boolean {
  let body: any;
  try { body = JSON.parse(text); } catch { return false; }
  const keysOk = Object.keys(body).every((k) => ["detail", "code", "params"].includes(k));
  const detailOk = typeof body.detail === "string" || (status === 422 && Array.isArray(body.detail) && body.detail.every((i: any) => Array.isArray(i.loc) && typeof i.msg === "string" && typeof i.type === "string"));
  return keysOk && detailOk && typeof body.code === "string" && (body.params === undefined || (typeof body.params === "object" && !Array.isArray(body.params)));
}

/** What is wrong with an answer: a status the operation does not document, or an error without the error body; null when fine. */
export function wrongAnswer(o: Operation, status: number, text: string): string | null {
  if (status >= 400 && !documented(o.op).includes(status)) return `${status} not in [${documented(o.op).join(", ")}]: ${text.slice(0, 200)}`;
  if (status >= 400 && !isErrorBody(text, status)) return `${status} body is not the error body: ${text.slice(0, 200)}`;
  return null;
}
