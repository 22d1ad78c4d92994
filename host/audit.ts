import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "./logger.ts";

export interface AuditActor {
  id: number;
  username: string;
}

/** Administrative actions: one JSON line in DATA_DIR/logs/audit.jsonl and one log line. */
export function createAuditLog(dataDir: string, logger: Logger) {
  const dir = join(dataDir, "logs");
  const file = join(dir, "audit.jsonl");
  return {
    file,
    record(action: string, actor: AuditActor, fields: Record<string, unknown> = {}): void {
      const entry = { time: new Date().toISOString(), action, admin_id: actor.id, admin_username: actor.username, ...fields };
      mkdirSync(dir, { recursive: true });
      appendFileSync(file, JSON.stringify(entry) + "\n");
      logger.info("audit", entry);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
