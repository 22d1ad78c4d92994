/**
 * Administration (superusers): users (activate, promote, reset a password, end sessions), backups (export, download, restore
 * with a preview of the file's contents read in the browser before anything is uploaded), the
 * update check, and each plugin's load status and error. Everything goes through the existing
 * routes; a non-administrator sees a note instead (the API refuses them anyway).
 */
import { useId, useState } from "preact/hooks";
import { api, call, errorText, type Body, type Result } from "../api/client.ts";
import { PasswordRequirements, unmetPasswordRequirements } from "../components/password-requirements.tsx";
import { Badge, ErrorNote, Field, Page, Select } from "../components/ui.tsx";
import { formatDateTime } from "../lib/format.ts";
import { addCatalogs, t } from "../lib/i18n.ts";
import { LAB } from "../i18n/lab.ts";
import { pluginKindLabel, pluginStatusLabel } from "../lib/labels.ts";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { ImageCheck } from "./settings.tsx";

addCatalogs(LAB);

type ExportDocument = Extract<Result<"post", "/backup/export">, { format: string }>;

export function AdminPage() {
  const { me } = useApp();
  if (!me.is_superuser) {
    return <Page title={t("Administration")}><p class="note" role="status">{t("Only administrators can see this page.")}</p></Page>;
  }
  return (
    <Page title={t("Administration")}>
      <Users />
      <Backups />
      <System />
    </Page>
  );
}

function Users() {
  const { me } = useApp();
  const users = useAsync((signal) => api.get("/users", { signal }), []);
  const [note, setNote] = useState<string | null>(null);
  const [resetFor, setResetFor] = useState<{ id: number; name: string; email: string } | null>(null);
  const act = async (question: string, done: string, run: () => Promise<unknown>) => {
    if (!confirm(question)) return;
    try {
      await run();
      setNote(done);
      users.reload();
    } catch (e) { setNote(errorText(e)); }
  };
  const endSessions = (id: number, name: string) => act(t("End every session of {name}?", { name }), t("The sessions of {name} were ended.", { name }),
    () => api.delete("/users/{user_id}/sessions", { path: { user_id: id } }));
  const change = (id: number, name: string, body: Body<"patch", "/users/{user_id}">, question: string, done: string) =>
    act(question, done, () => api.patch("/users/{user_id}", { path: { user_id: id }, body }));
  return (
    <section class="card" aria-labelledby="h-admin-users">
      <h2 id="h-admin-users">{t("Users")}</h2>
      <ErrorNote error={users.error} />
      <div class="table-wrap positioned">
        <table class="table compact" data-testid="admin-users">
          <thead><tr><th scope="col">{t("User")}</th><th scope="col">{t("Email")}</th><th scope="col">{t("Status")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
          <tbody>{users.data?.items.map((u) => {
            const self = u.id === me.id;
            const name = u.username;
            return (
              <tr key={u.id} data-testid={`user-${u.username}`}>
                <th scope="row">{u.username}{self && ` ${t("(you)")}`}</th>
                <td>{u.email}</td>
                <td>{u.is_superuser && <Badge>{t("admin")}</Badge>} {u.is_active ? <Badge kind="ok">{t("active")}</Badge> : <Badge kind="warning">{t("disabled")}</Badge>}</td>
                <td class="row">
                  <button type="button" class="ghost" onClick={() => void endSessions(u.id, name)}>{t("End sessions")}<span class="sr-only"> {name}</span></button>
                  {/* One's own account cannot be deactivated or demoted (the API refuses it too). */}
                  {u.is_active
                    ? !self && <button type="button" class="ghost" onClick={() => void change(u.id, name, { is_active: false }, t("Deactivate {name}? Their next request is refused.", { name }), t("{name} was deactivated.", { name }))}>{t("Deactivate")}<span class="sr-only"> {name}</span></button>
                    : <button type="button" class="ghost" onClick={() => void change(u.id, name, { is_active: true }, t("Activate {name}?", { name }), t("{name} was activated.", { name }))}>{t("Activate")}<span class="sr-only"> {name}</span></button>}
                  {u.is_superuser
                    ? !self && <button type="button" class="ghost" onClick={() => void change(u.id, name, { is_superuser: false }, t("Remove administrator rights from {name}?", { name }), t("{name} is no longer an administrator.", { name }))}>{t("Demote")}<span class="sr-only"> {name}</span></button>
                    : <button type="button" class="ghost" onClick={() => void change(u.id, name, { is_superuser: true }, t("Make {name} an administrator?", { name }), t("{name} is now an administrator.", { name }))}>{t("Promote")}<span class="sr-only"> {name}</span></button>}
                  <button type="button" class="ghost" onClick={() => { setResetFor({ id: u.id, name, email: u.email }); setNote(null); }}>{t("Reset password")}<span class="sr-only"> {name}</span></button>
                </td>
              </tr>
            );
          })}</tbody>
        </table>
      </div>
      {resetFor && <ResetPassword key={resetFor.id} target={resetFor} onDone={(text) => { setResetFor(null); if (text) setNote(text); }} />}
      {note && <p role="status">{note}</p>}
    </section>
  );
}

/**
 * The new password typed twice, the password policy's requirements ticked as it is typed; the API
 * checks the policy again and ends the account's sessions.
 */
function ResetPassword({ target, onDone }: { target: { id: number; name: string; email: string }; onDone: (note: string | null) => void }) {
  const [password, setPassword] = useState("");
  const unmet = unmetPasswordRequirements(password, { username: target.name, email: target.email });
  const rulesId = useId();
  const [again, setAgain] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setMismatch(password !== again);
    if (password !== again) return;
    if (!confirm(t("Reset the password of {name}? Every session of {name} ends.", { name: target.name }))) return;
    try {
      await api.post("/users/{user_id}/password", { path: { user_id: target.id }, body: { password } });
      onDone(t("The password of {name} was reset.", { name: target.name }));
    } catch (err) { setError(err); }
  };
  return (
    <form class="row" onSubmit={submit} aria-label={t("Reset the password of {name}", { name: target.name })} data-testid="reset-password">
      <Field label={t("New password for {name}", { name: target.name })}>{(id) => <input id={id} type="password" autoComplete="new-password" required aria-describedby={rulesId} value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />}</Field>
      <Field label={t("Repeat the new password")}>{(id) => <input id={id} type="password" autoComplete="new-password" required value={again} onInput={(e) => setAgain((e.target as HTMLInputElement).value)} />}</Field>
      <button type="submit" class="primary" disabled={unmet.length > 0}>{t("Reset password")}</button>
      <button type="button" class="ghost" onClick={() => onDone(null)}>{t("Cancel")}</button>
      <PasswordRequirements id={rulesId} unmet={unmet} />
      {mismatch && <p class="note error" role="alert">{t("The two passwords differ.")}</p>}
      <ErrorNote error={error} />
    </form>
  );
}

function Backups() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const status = useAsync((signal) => api.get("/backup/status", { signal }), []);
  const [format, setFormat] = useState<"json" | "sqlite">("json");
  const [prices, setPrices] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ExportDocument | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  const [restored, setRestored] = useState<Result<"post", "/backup/restore"> | null>(null);

  // The export is a file download: fetched as a blob so an error answer shows here instead of as a broken file.
  const download = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setError(null);
    try {
      const body: Body<"post", "/backup/export"> = { format, scope: ["all"], include_price_history: prices };
      const res = await call("post", "/backup/export", { body });
      const blob = await res.blob();
      const name = /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `portfolio-export.${format}`;
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      status.reload();
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  const choose = async (f: File | null) => {
    setFile(f); setPreview(null); setPreviewError(null); setRestored(null);
    if (!f) return;
    try {
      const doc = JSON.parse(await f.text()) as Partial<ExportDocument>;
      if (doc.format !== "portfolio-tracker-export" || typeof doc.row_counts !== "object") throw new Error("format");
      setPreview(doc as ExportDocument);
    } catch { setPreviewError(t("This file is not a JSON export of this application.")); }
  };

  const restore = async () => {
    if (!file || !preview) return;
    if (!confirm(t("Restore this file into your account?"))) return;
    setBusy(true); setError(null);
    try {
      const form = new FormData();
      form.append("file", file);
      const up = await api.post("/uploads", { body: form as never });
      setRestored(await api.post("/backup/restore", { body: { file_id: up.id, overwrite_existing: overwrite } }));
      status.reload();
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  return (
    <section class="card" aria-labelledby="h-admin-backup">
      <h2 id="h-admin-backup">{t("Backups")}</h2>
      <ErrorNote error={status.error} />
      {status.data && (
        <p class="muted" data-testid="backup-status">
          {t("Last export: {when}", { when: status.data.last_export_at ? formatDateTime(status.data.last_export_at, locale) : t("never") })} ·{" "}
          {t("Last restore: {when}", { when: status.data.last_restore_at ? formatDateTime(status.data.last_restore_at, locale) : t("never") })}
        </p>
      )}
      <form class="row" onSubmit={download} aria-label={t("Create a backup")}>
        <Field label={t("Format")}>{(id) => <Select id={id} value={format} onChange={(v) => setFormat(v as "json")} options={[{ value: "json", label: t("JSON export (portable)") }, { value: "sqlite", label: t("Database file (SQLite)") }]} />}</Field>
        {format === "json" && <label class="check"><input type="checkbox" checked={prices} onChange={(e) => setPrices((e.target as HTMLInputElement).checked)} /> {t("Include price history")}</label>}
        <button type="submit" class="primary" disabled={busy}>{t("Create and download")}</button>
      </form>
      <h3>{t("Restore")}</h3>
      <Field label={t("JSON export file")}>{(id) => <input id={id} type="file" accept=".json,application/json" onChange={(e) => void choose((e.target as HTMLInputElement).files?.[0] ?? null)} />}</Field>
      {previewError && <p class="note error" role="alert">{previewError}</p>}
      {preview && (
        <div data-testid="restore-preview">
          <p>{t("Exported {when} by version {version} (document version {schema}).", { when: formatDateTime(preview.exported_at, locale), version: preview.app_version, schema: preview.schema_version })}</p>
          <table class="table compact">
            <caption>{t("What the file contains")}</caption>
            <thead><tr><th scope="col">{t("Section")}</th><th scope="col" class="num">{t("Rows")}</th></tr></thead>
            <tbody>{Object.entries(preview.row_counts).map(([k, n]) => <tr key={k} data-section={k}><th scope="row">{k}</th><td class="num">{n}</td></tr>)}</tbody>
          </table>
          <label class="check"><input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite((e.target as HTMLInputElement).checked)} /> {t("Overwrite existing rows")}</label>
          <button type="button" class="primary" disabled={busy} onClick={() => void restore()}>{t("Restore")}</button>
        </div>
      )}
      {restored && (
        <div role="status" data-testid="restore-result">
          <table class="table compact">
            <caption>{t("Restored")}</caption>
            <thead><tr><th scope="col">{t("Section")}</th><th scope="col" class="num">{t("Restored")}</th><th scope="col" class="num">{t("Skipped")}</th></tr></thead>
            <tbody>{Object.keys({ ...restored.restored, ...restored.skipped }).map((k) => <tr key={k}><th scope="row">{k}</th><td class="num">{restored.restored[k] ?? 0}</td><td class="num">{restored.skipped[k] ?? 0}</td></tr>)}</tbody>
          </table>
          {restored.warnings.length > 0 && <ul>{restored.warnings.map((w, i) => <li key={i}>{w}</li>)}</ul>}
        </div>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

function System() {
  const info = useAsync((signal) => api.get("/system/info", { signal }), []);
  const plugins = useAsync((signal) => api.get("/system/plugin-diagnostics", { signal }), []);
  return (
    <section class="card" aria-labelledby="h-admin-system">
      <h2 id="h-admin-system">{t("Updates and plugins")}</h2>
      {info.data && <p class="muted">{t("Version")} {info.data.app_version} · {info.data.runtime} {info.data.runtime_version}</p>}
      {info.data && <ImageCheck version={info.data.app_version} />}
      <ErrorNote error={plugins.error ?? info.error} />
      <div class="table-wrap">
        <table class="table compact" data-testid="admin-plugins">
          <thead><tr><th scope="col">{t("Plugin")}</th><th scope="col">{t("Kind")}</th><th scope="col">{t("Version")}</th><th scope="col">{t("Source")}</th><th scope="col">{t("Status")}</th><th scope="col">{t("Error")}</th></tr></thead>
          <tbody>{plugins.data?.map((p, i) => (
            <tr key={i} data-testid={`plugin-${p.id ?? p.filename ?? i}`}>
              <th scope="row">{p.name ?? p.id ?? p.filename}</th><td>{pluginKindLabel(p.kind)}</td><td>{p.version ?? ""}</td><td>{p.source === "builtin" ? t("built in") : t("external")}</td>
              <td><Badge kind={p.status === "loaded" ? "ok" : p.status === "disabled" ? "info" : "error"}>{pluginStatusLabel(p.status)}</Badge></td>
              <td>{p.error ?? ""}</td>
            </tr>
          ))}</tbody>
        </table>
      </div>
    </section>
  );
}
