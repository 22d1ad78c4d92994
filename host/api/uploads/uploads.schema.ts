import { z } from "zod";
import type { UploadedFile } from "../../../core/uploads/uploaded-file.entity.ts";

/** Where a record's bytes are served (spelled out: importing API_PREFIX from app.ts would be a cycle). */
const FILE_URL = "/api/v1/uploads/file/";

const flag = z.enum(["true", "false", "1", "0"]).optional().transform((v) => v === "true" || v === "1");

export const UploadRecord = z.object({
  id: z.number().int(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  description: z.string().nullable(),
  uploaded_by: z.number().int().nullable(),
  created_at: z.string(),
  url: z.string(),
});

export const UploadList = z.object({ items: z.array(UploadRecord) });

/**
 * A multipart file part with a name. `z.file()` is zod's own File check (an `instanceof File`, like
 * `z.instanceof(File)`), but unlike `z.instanceof` it has a JSON Schema form (string, format
 * binary), so the OpenAPI document renders. A part sent with `filename=""` arrives as a File
 * without a name: refused here (422), since the name is what the record shows and sniffing reads.
 */
export const NamedFile = z.file().refine((file) => typeof file.name === "string" && file.name.trim() !== "", "the file needs a name");

export const UploadCreateBody = z.object({
  file: NamedFile,
  description: z.string().max(500).optional(),
});

export const FileIdParams = z.object({
  file_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

export const ListQuery = z.object({ my_files_only: flag });
export const DownloadQuery = z.object({ download: flag });

export const DeleteResponse = z.object({ success: z.boolean(), deleted_count: z.number().int() });

export const PluginAssetParams = z.object({
  type: z.string().min(1).max(64),
  pluginId: z.string().min(1).max(128),
  "*": z.string().max(1024),
});

export function toUploadRecord(f: UploadedFile): z.infer<typeof UploadRecord> {
  return {
    id: f.id,
    filename: f.originalName,
    content_type: f.contentType,
    size_bytes: f.sizeBytes,
    sha256: f.sha256,
    description: f.description,
    uploaded_by: f.userId,
    created_at: new Date(f.createdAt).toISOString(),
    url: `${FILE_URL}${f.id}`,
  };
}
