import { Elysia } from "elysia";
import { basename } from "node:path";
import { InputError, NotFoundError } from "../../../core/errors/domain-error.ts";
import { extensionOf, sniffUpload } from "../../../core/uploads/mime-sniff.ts";
import { uploadsDir } from "../../../core/uploads/paths.ts";
import { containedFile, UploadService } from "../../../core/uploads/upload.service.ts";
import { PLUGIN_KINDS, type PluginKind } from "../../../sdk/index.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses, ErrorBody } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import {
  DeleteResponse, DownloadQuery, FileIdParams, ListQuery, PluginAssetParams, toUploadRecord, UploadCreateBody,
  UploadList, UploadRecord,
} from "./uploads.schema.ts";
import { declaredLength } from "../../http/request-body.ts";

/** Served bytes never run as a page in our origin: no sniffing, no scripts, a sandboxed document. */
const SAFE_HEADERS = {
  "cache-control": "private, max-age=3600",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "x-content-type-options": "nosniff",
} as const;

/** Reference aliases of plugin kinds (`asset`, `fx`, `brim`) beside the kinds themselves. */
const KIND_ALIASES: Record<string, readonly PluginKind[]> = {
  asset: ["quote-provider", "scheduled-investment-provider"],
  brim: ["import-plugin"],
  fx: ["fx-provider"],
};

/** Plugin assets of these extensions get their type from the name; anything else is sniffed. */
const ASSET_TYPES: Record<string, string> = {
  css: "text/css", jpeg: "image/jpeg", jpg: "image/jpeg", json: "application/json", md: "text/markdown",
  png: "image/png", svg: "image/svg+xml", txt: "text/plain", webp: "image/webp",
};

const binaryResponse = {
  200: { description: "The file's bytes", content: { "*/*": { schema: { type: "string", format: "binary" } } } },
} as const;

function kindsFor(type: string): readonly PluginKind[] {
  return (PLUGIN_KINDS as readonly string[]).includes(type) ? [type as PluginKind] : KIND_ALIASES[type] ?? [];
}

function withCharset(contentType: string): string {
  return contentType.startsWith("text/") ? `${contentType}; charset=utf-8` : contentType;
}

/** RFC 6266: an ASCII `filename` fallback and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function fileResponse(file: Bun.BunFile, contentType: string, extra: Record<string, string> = {}): Response {
  return new Response(file, {
    headers: { ...SAFE_HEADERS, "content-length": String(file.size), "content-type": withCharset(contentType), ...extra },
  });
}

/** Stands in for a body refused while parsing; raised in transform, once the session is checked. */
export class RefusedBody {
  constructor(readonly error: Error) {}
}

/** Form fields by name (a repeated name gives an array); prototype keys are dropped. */
function formFields(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  for (const key of new Set(form.keys())) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    const values = form.getAll(key);
    fields[key] = values.length === 1 ? values[0] : values;
  }
  return fields;
}

/** Elysia leaves the wildcard percent-encoded; decoded exactly once, so `..%2F` is caught as `../`. */
function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

/**
 * The upload body, read here rather than by Elysia, whose parse errors would answer 400 before the
 * session check. A declared length over the cap is refused unread; a body without one (chunked) is
 * counted as it streams in and refused as soon as it passes the cap, the rest left unread. A body
 * that is not multipart is left unread and empty, so validation reports the missing file (422).
 */
export async function readUploadBody(request: Request, uploads: UploadService): Promise<Record<string, unknown> | RefusedBody> {
  const length = declaredLength(request);
  const tooLarge = await uploads.checkDeclaredLength(length);
  if (tooLarge) return new RefusedBody(tooLarge);
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return {};
  let form: FormData;
  try {
    if (length !== null || request.body === null) form = await request.formData();
    else {
      const read = await readCapped(request.body, await uploads.maxBodyBytes());
      if (read === null) return new RefusedBody(await uploads.tooLargeError());
      form = await new Response(read, { headers: { "content-type": contentType } }).formData();
    }
  } catch {
    return new RefusedBody(new InputError("MALFORMED_BODY", "Malformed multipart body"));
  }
  return formFields(form);
}

/** The stream's bytes, or null (the stream cancelled) as soon as they pass `max`. */
async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

export function uploadsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const uploads = deps.container.resolve(UploadService);
  const dir = uploadsDir(deps.config.dataDir);
  const assetNotFound = () => new NotFoundError("ASSET_NOT_FOUND", "Plugin asset not found");

  /** A plugin's file under its assets folder, trying each kind an alias stands for. */
  const findAsset = async (type: string, pluginId: string, relative: string) => {
    for (const kind of kindsFor(type)) {
      const root = deps.plugins.assetsDir(kind, pluginId);
      const path = root === undefined ? null : await containedFile(root, relative);
      if (path) return path;
    }
    throw assetNotFound();
  };

  return new Elysia({ prefix: "/uploads", tags: ["uploads"] })
    .use(session)
    .macro({
      uploadBody: {
        parse: ({ request }) => readUploadBody(request, uploads),
        transform: ({ body }) => {
          if (body instanceof RefusedBody) throw body.error;
        },
      },
      // Documents the multipart body in OpenAPI (which lists content-type parse hooks) but never
      // runs: `uploadBody` always supplies the body. Elysia's macro typings admit only functions.
      multipart: { parse: "multipart/form-data" as unknown as () => void },
    })
    .get("", async ({ query, user }) => ({
      items: (await uploads.listFor(user, query.my_files_only)).map(toUploadRecord),
    }), {
      auth: true,
      query: ListQuery,
      response: { 200: UploadList, ...errorResponses },
      detail: { summary: "The caller's uploads, newest first; an administrator sees every user's unless my_files_only=true" },
    })
    .post("", async ({ body, status, user }) => {
      const file = await uploads.create({
        bytes: new Uint8Array(await body.file.arrayBuffer()),
        description: body.description ?? null,
        dir,
        filename: body.file.name,
        userId: user.id,
      });
      return status(201, toUploadRecord(file));
    }, {
      // Order matters: macros apply in the order listed, so the session check runs first in transform.
      auth: true,
      uploadBody: true,
      multipart: true,
      body: UploadCreateBody,
      response: { 201: UploadRecord, 413: ErrorBody, ...errorResponses, 400: ErrorBody },
      detail: {
        summary: "Upload a file (multipart `file`, optional `description`); the type is sniffed from the content, "
          + "executables, scripts and HTML are refused (400 BLOCKED_FILE_TYPE), size capped by max_file_upload_mb (413)",
      },
    })
    .get("/:file_id", async ({ params, user }) => toUploadRecord(await uploads.getFor(params.file_id, user)), {
      auth: true,
      params: FileIdParams,
      response: { 200: UploadRecord, ...errorResponses },
      detail: { summary: "One upload record, the caller's own (any for an administrator); 404 UPLOAD_NOT_FOUND otherwise" },
    })
    .delete("/:file_id", async ({ params, user }) => {
      const file = await uploads.delete(dir, params.file_id, user);
      if (file.userId !== user.id) deps.audit.record("upload.delete", user, { file_id: file.id, uploaded_by: file.userId });
      return { success: true, deleted_count: 1 };
    }, {
      auth: true,
      params: FileIdParams,
      response: { 200: DeleteResponse, ...errorResponses },
      detail: { summary: "Delete an upload and its bytes (the uploader or an administrator; 404 otherwise)" },
    })
    .get("/file/:file_id", async ({ params, query, user }) => {
      // The bytes are the uploader's alone: administrators list and delete, they do not read.
      const record = await uploads.getFor(params.file_id, user, false);
      const file = Bun.file(uploads.pathOf(dir, record));
      if (!(await file.exists())) throw new NotFoundError("UPLOAD_NOT_FOUND", `Upload ${record.id} not found`, { file_id: record.id });
      return fileResponse(file, record.contentType, {
        "content-disposition": contentDisposition(query.download ? "attachment" : "inline", record.originalName),
      });
    }, {
      auth: true,
      params: FileIdParams,
      query: DownloadQuery,
      detail: {
        summary: "The caller's own stored bytes with the sniffed type (404 for another user's); download=true sends them as an attachment",
        responses: binaryResponse,
      },
    })
    .get("/plugin/:type/:pluginId/*", async ({ params }) => {
      const path = await findAsset(params.type, params.pluginId, decodePath(params["*"]));
      const file = Bun.file(path);
      let type = ASSET_TYPES[extensionOf(path)];
      if (!type) {
        const sniffed = sniffUpload(new Uint8Array(await file.arrayBuffer()), basename(path));
        if (sniffed.blocked) throw assetNotFound();
        type = sniffed.contentType;
      }
      return fileResponse(file, type);
    }, {
      auth: true,
      params: PluginAssetParams,
      detail: {
        summary: "A static asset shipped by a plugin (type: a plugin kind, or the aliases asset, fx, brim); 404 for paths outside its folder",
        responses: binaryResponse,
      },
    });
}
