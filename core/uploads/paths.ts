import { join } from "node:path";

/** Folder of generic uploads under DATA_DIR. */
export function uploadsDir(dataDir: string): string {
  return join(dataDir, "uploads");
}
