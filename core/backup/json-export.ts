import { BACKUP_SCHEMA_VERSION, EXPORT_FORMAT } from "./document.ts";
import type { ExportPlan, ExportRequest } from "./export-plan.ts";
import { SECTIONS } from "./sections.ts";
import { ChunkBuffer, type SnapshotReader, yieldToEventLoop } from "./snapshot-reader.ts";

export interface JsonExportMeta {
  appVersion: string;
  exportedAt: Date;
  request: ExportRequest;
}

/**
 * The JSON export document as text chunks, section by section in restore order, every row
 * pulled from the snapshot one at a time (constant memory). Rows are written as stored, so
 * decimals keep their exact strings.
 */
export async function* streamJsonExport(reader: SnapshotReader, plan: ExportPlan, meta: JsonExportMeta): AsyncGenerator<string> {
  const out = new ChunkBuffer();
  const head = {
    format: EXPORT_FORMAT,
    schema_version: BACKUP_SCHEMA_VERSION,
    app_version: meta.appVersion,
    exported_at: meta.exportedAt.toISOString(),
    scope: meta.request.scope,
    include_price_history: meta.request.includePriceHistory,
    broker_ids: meta.request.brokerIds,
  };
  out.push(`${JSON.stringify(head).slice(0, -1)},"sections":{`);
  const counts: Record<string, number> = {};
  let firstSection = true;
  for (const section of SECTIONS) {
    if (!plan.groups.has(section.group)) continue;
    out.push(`${firstSection ? "" : ","}${JSON.stringify(section.name)}:[`);
    firstSection = false;
    let count = 0;
    const query = section.select(plan);
    if (query) {
      for await (const row of reader.iterate<Record<string, unknown>>(query.sql, query.params)) {
        out.push(`${count === 0 ? "" : ","}${JSON.stringify(row)}`);
        count++;
        if (out.full) yield out.take();
        if (out.tick()) await yieldToEventLoop();
      }
    }
    out.push("]");
    counts[section.name] = count;
  }
  out.push(`},"row_counts":${JSON.stringify(counts)}}`);
  yield out.take();
}
