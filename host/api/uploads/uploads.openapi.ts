import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the uploads area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const uploadsDocs: AreaDocs = {
  tag: { name: "uploads", description: "File uploads, file serving, plugin assets" },
  operations: {
    "POST /uploads": {
      changes: "Stores the file under DATA_DIR and a record owned by the caller.",
    },
    "DELETE /uploads/{file_id}": {
      who: "The uploader or a superuser (403 otherwise).",
      changes: "Deletes the record and its bytes.",
    },
  },
  fields: {
    file: "The file (multipart)",
    filename: "File name as uploaded",
    content_type: "MIME type sniffed from the content",
    size_bytes: "Size in bytes",
    sha256: "SHA-256 of the content, hex",
    uploaded_by: "Id of the uploader",
    my_files_only: "true: only the caller's uploads",
    file_id: "Id of the upload",
    download: "true: served as an attachment (Content-Disposition), false: inline",
    pluginId: "Id of the plugin",
    path: "Path of the asset file inside the plugin's assets folder",
  },
};
