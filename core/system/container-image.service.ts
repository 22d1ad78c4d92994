import { parseBearerChallenge } from "./bearer-challenge.ts";
import { InvalidTagError } from "./errors.ts";

/**
 * Whether the container image of a release tag is pullable (the update check announces a release only then):
 * anonymous manifest HEAD; on 401 a strictly checked Bearer challenge, an anonymous pull token
 * from the registry's own token endpoint, and the HEAD again with that token. Every deviation is
 * an `error` outcome, never an exception; only a malformed tag throws. The token is never
 * logged or returned.
 */

export type ImageErrorCode = "image-auth-request-failed" | "image-request-failed";

interface Checked {
  checkedAt: Date;
  image: string;
  tag: string;
}

export type ContainerImageStatus =
  | (Checked & { status: "published" })
  | (Checked & { status: "pending" })
  | (Checked & { detail: string; errorCode: ImageErrorCode; status: "error" });

type Outcome =
  | { status: "published" | "pending" }
  | { detail: string; errorCode: ImageErrorCode; status: "error" };

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ContainerImageServiceOptions {
  /** Injected for tests; defaults to the global fetch. */
  fetch?: FetchLike;
  now?: () => Date;
  /** Registry base URL, e.g. `https://ghcr.io`; only its origin is used. */
  registryUrl: string;
  /** Repository path, e.g. `owner/name`. */
  repository: string;
  /** Per request, in milliseconds (default 5 s). */
  timeoutMs?: number;
}

export const IMAGE_CHECK_TIMEOUT_MS = 5_000;
const MAX_TOKEN_BODY_BYTES = 64 * 1024;
const STABLE_TAG = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
/** OCI distribution-spec repository name grammar. */
const REPOSITORY = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;
/** RFC 6750 §2.1 b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MANIFEST_ACCEPT = [
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
  "application/vnd.docker.distribution.manifest.v2+json",
].join(", ");

const AUTH: ImageErrorCode = "image-auth-request-failed";
const MANIFEST: ImageErrorCode = "image-request-failed";

/** Throws InvalidTagError unless `tag` is a stable `X.Y.Z` without leading zeros (the update check considers only stable releases). */
export function assertStableTag(tag: string): void {
  if (!STABLE_TAG.test(tag)) throw new InvalidTagError(tag);
}

class StepFailure extends Error {
  constructor(readonly errorCode: ImageErrorCode, readonly detail: string) {
    super(detail);
  }
}

function fail(errorCode: ImageErrorCode, detail: string): never {
  throw new StepFailure(errorCode, detail);
}

export class ContainerImageService {
  private readonly fetch: FetchLike;
  private readonly now: () => Date;
  private readonly timeoutMs: number;

  constructor(private readonly options: ContainerImageServiceOptions) {
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.now = options.now ?? (() => new Date());
    this.timeoutMs = options.timeoutMs ?? IMAGE_CHECK_TIMEOUT_MS;
  }

  async check(tag: string): Promise<ContainerImageStatus> {
    assertStableTag(tag);
    let registry: URL | null = null;
    try {
      registry = new URL(this.options.registryUrl);
    } catch { /* reported below */ }
    const host = registry?.host ?? this.options.registryUrl;
    const image = `${host}/${this.options.repository}:${tag}`;
    let outcome: Outcome;
    try {
      outcome = await this.run(registry, tag);
    } catch (error) {
      if (!(error instanceof StepFailure)) throw error;
      outcome = { status: "error", errorCode: error.errorCode, detail: error.detail };
    }
    return { ...outcome, tag, image, checkedAt: this.now() };
  }

  private async run(registry: URL | null, tag: string): Promise<Outcome> {
    const { repository } = this.options;
    const base = usableRegistry(registry);
    if (!REPOSITORY.test(repository)) fail(MANIFEST, "The configured container image repository name is invalid");
    const manifestUrl = `${base.origin}/v2/${repository}/manifests/${tag}`;

    const anonymous = await this.headManifest(manifestUrl, "Anonymous manifest request");
    if (anonymous.status !== 401) return manifestOutcome(anonymous.status, "Anonymous manifest request");

    const realm = trustedRealm(anonymous.headers.get("www-authenticate"), base, repository);
    const token = await this.pullToken(realm, base.host, `repository:${repository}:pull`);
    const authenticated = await this.headManifest(manifestUrl, "Authenticated manifest request", token);
    return manifestOutcome(authenticated.status, "Authenticated manifest request");
  }

  private async headManifest(url: string, what: string, token?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: MANIFEST_ACCEPT };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await this.send(url, { method: "HEAD", headers }, MANIFEST, what);
    void res.body?.cancel().catch(() => {});
    return res;
  }

  /** Step 4: an anonymous pull token, accepted only with b64token syntax. */
  private async pullToken(realm: string, service: string, scope: string): Promise<string> {
    const url = new URL(realm);
    url.searchParams.set("scope", scope);
    url.searchParams.set("service", service);
    const signal = AbortSignal.timeout(this.timeoutMs);
    const res = await this.send(url.href, { method: "GET", headers: { accept: "application/json" }, signal }, AUTH, "Token request");
    if (res.status < 200 || res.status > 299) {
      void res.body?.cancel().catch(() => {});
      fail(AUTH, `Token request answered ${res.status}`);
    }
    const text = await readLimited(res, signal).catch((error) => fail(AUTH, `Token response could not be read: ${this.reasonOf(error)}`));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      fail(AUTH, "Token response is not JSON");
    }
    return tokenOf(body);
  }

  /** One request: no redirects followed, one timeout for the whole request. */
  private async send(url: string, init: RequestInit, code: ImageErrorCode, what: string): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), ...init, redirect: "manual" });
    } catch (error) {
      return fail(code, `${what} failed: ${this.reasonOf(error)}`);
    }
    if (res.type === "opaqueredirect" || (res.status >= 300 && res.status <= 399)) {
      void res.body?.cancel().catch(() => {});
      fail(code, `${what} was redirected (${res.status || "opaque"}); redirects are not followed`);
    }
    return res;
  }

  private reasonOf(error: unknown): string {
    const name = (error as { name?: string })?.name;
    if (name === "TimeoutError") return `timed out after ${this.timeoutMs / 1000} s`;
    if (name === "AbortError") return "aborted";
    if (error instanceof Error && error.message.startsWith("larger than")) return error.message;
    return "network error";
  }
}

function usableRegistry(registry: URL | null): URL {
  const usable = registry !== null && (registry.protocol === "https:" || registry.protocol === "http:")
    && !registry.username && !registry.password;
  return usable ? registry : fail(MANIFEST, "The configured container registry URL is not a usable http(s) URL");
}

function manifestOutcome(status: number, what: string): Outcome {
  if (status >= 200 && status <= 299) return { status: "published" };
  if (status === 404) return { status: "pending" };
  return fail(MANIFEST, `${what} answered ${status}`);
}

/**
 * Step 3: the realm of a challenge trusted only when it is exactly the registry's own token
 * endpoint (same origin, path /token, nothing else), for the registry's service and the pull
 * scope of the project repository.
 */
function trustedRealm(header: string | null, registry: URL, repository: string): string {
  if (header === null) return fail(AUTH, "Registry answered 401 without a WWW-Authenticate challenge");
  const parsed = parseBearerChallenge(header);
  if (!parsed.ok) return fail(AUTH, `Registry challenge is malformed: ${parsed.reason}`);
  const { params } = parsed;
  const realm = params.get("realm");
  const expected = `${registry.origin}/token`;
  if (realm === undefined) fail(AUTH, "Registry challenge has no realm");
  // Compared as written, so parser normalisation (":443", case, "/./", stripped tabs) cannot launder a realm.
  if (realm !== expected) fail(AUTH, `Registry challenge realm is not the registry token endpoint: ${realmDeviation(realm, registry)}`);
  if (params.get("service") !== registry.host) fail(AUTH, "Registry challenge service is not the registry host");
  if (params.get("scope") !== `repository:${repository}:pull`) fail(AUTH, "Registry challenge scope is not the pull scope of the repository");
  return expected;
}

function realmDeviation(realm: string, registry: URL): string {
  let url: URL;
  try {
    url = new URL(realm);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== registry.protocol) return "different scheme";
  if (url.username || url.password) return "carries credentials";
  if (url.host !== registry.host) return "different host or port";
  if (url.search || realm.includes("?")) return "has a query";
  if (url.hash || realm.includes("#")) return "has a fragment";
  if (url.pathname !== "/token") return "path is not /token";
  return "not written in canonical form";
}

/** The token of a token-endpoint answer; `token` and `access_token` must agree when both are set. */
function tokenOf(body: unknown): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return fail(AUTH, "Token response is not a JSON object");
  const { token, access_token: accessToken } = body as Record<string, unknown>;
  if (token !== undefined && typeof token !== "string") fail(AUTH, "Token response field token is not a string");
  if (accessToken !== undefined && typeof accessToken !== "string") fail(AUTH, "Token response field access_token is not a string");
  if (token !== undefined && accessToken !== undefined && token !== accessToken) {
    fail(AUTH, "Token response fields token and access_token differ");
  }
  const value = (token ?? accessToken) as string | undefined;
  if (value === undefined) return fail(AUTH, "Token response has no token");
  if (!B64TOKEN.test(value)) fail(AUTH, "Token response token does not have bearer-token syntax");
  return value;
}

async function readLimited(res: Response, signal: AbortSignal): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > MAX_TOKEN_BODY_BYTES) throw new Error(`larger than ${MAX_TOKEN_BODY_BYTES} bytes`);
      chunks.push(value);
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString("utf8");
}

