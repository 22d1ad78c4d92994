import { expect } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";

/** POST /backup/export as JSON; returns the document's text (200 expected). */
export async function exportJson(c: ApiClient, body: Record<string, unknown> = {}): Promise<string> {
  const res = await c.post("/backup/export", { format: "json", ...body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`export: ${res.status} ${text}`);
  return text;
}

/** Uploads text through POST /uploads and returns the file id. */
export async function uploadText(c: ApiClient, text: string, name = "export.json"): Promise<number> {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "application/json" }));
  const res = await c.post("/uploads", form);
  const body = await res.json();
  expect(res.status).toBe(201);
  return body.id;
}

/**
 * Turns the scheduler off (superuser): its current-price job writes prices of assets with a
 * provider at any minute, which would blur "nothing was written" comparisons.
 */
export async function disableScheduler(admin: ApiClient): Promise<void> {
  const res = await admin.request("PATCH", "/settings/global/bulk", { items: [{ key: "scheduler_enabled", value: "false" }] });
  expect(res.status).toBe(200);
}
