/**
 * AI access (Settings): MCP tokens for AI assistants (docs/mcp.md) — create one with a data grade
 * and brokers, see when each was last used, revoke it, copy a client configuration —, the
 * drafts assistants proposed, to commit or discard, and what the assistants called (the MCP audit
 * rows, a page at a time). Loaded on first visit.
 */
import { useState } from "preact/hooks";
import { api, errorText } from "../api/client.ts";
import { Badge, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { LAB } from "../i18n/lab.ts";
import { formatDateTime } from "../lib/format.ts";
import { addCatalogs, t } from "../lib/i18n.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

addCatalogs(LAB);

type Grade = "full" | "relative" | "aggregate";

/** Audit rows per page. */
const AUDIT_PAGE = 20;

const gradeLabel = (g: Grade) => (g === "full" ? t("Full: amounts and quantities") : g === "relative" ? t("Relative: weights and returns, no amounts") : t("Aggregate: portfolio-level figures only"));

/** Ready-made configurations for common MCP clients (docs/mcp.md "Configuring a client"). */
function snippets(url: string, secret: string): [string, string][] {
  return [
    ["Claude Code", `claude mcp add --transport http portfolio ${url} --header "Authorization: Bearer ${secret}"`],
    ["Cursor / VS Code", JSON.stringify({ mcpServers: { portfolio: { url, headers: { Authorization: `Bearer ${secret}` } } } }, null, 2)],
    ["Claude Desktop", JSON.stringify({ mcpServers: { portfolio: { command: "npx", args: ["mcp-remote", url, "--header", "Authorization: Bearer ${PT_TOKEN}"], env: { PT_TOKEN: secret } } } }, null, 2)],
  ];
}

export function AiAccessPage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const tokens = useAsync((signal) => api.get("/auth/tokens", { signal }), []);
  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const drafts = useAsync((signal) => api.get("/mcp/drafts", { signal }), []);
  const [auditOffset, setAuditOffset] = useState(0);
  const audit = useAsync((signal) => api.get("/mcp/audit", { signal, query: { limit: AUDIT_PAGE, offset: auditOffset } }), [auditOffset]);
  const [name, setName] = useState("");
  const [grade, setGrade] = useState<Grade>("relative");
  const [write, setWrite] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const url = `${location.origin}/api/v1/mcp`;

  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api.post("/auth/tokens", {
        body: { name: name.trim(), scope: grade === "full" && write ? "read-write" : "read", admin: false, mcp: { grade, ...(chosen.length ? { broker_ids: chosen } : {}) } },
      });
      setCreated({ name: r.name, secret: r.token });
      setName("");
      tokens.reload();
    } catch (err) { setError(err); }
  };
  const revoke = async (id: number) => {
    try { await api.delete("/auth/tokens/{id}", { path: { id } }); tokens.reload(); } catch (err) { setError(err); }
  };
  const decide = async (id: string, action: "commit" | "discard") => {
    setError(null);
    try {
      const d = action === "commit"
        ? await api.post("/mcp/drafts/{id}/commit", { path: { id } })
        : await api.post("/mcp/drafts/{id}/discard", { path: { id } });
      setNote(d.status === "committed" ? t("Draft committed.") : d.status === "discarded" ? t("Draft discarded.") : t("The ledger refused the draft; nothing was kept."));
      drafts.reload();
    } catch (err) { setError(err); }
  };
  const copy = (text: string) => { void navigator.clipboard?.writeText(text).then(() => setNote(t("Copied."))).catch(() => undefined); };
  const mcpTokens = tokens.data?.items.filter((x) => x.mcp) ?? [];
  const brokerName = (id: number) => brokers.data?.items.find((b) => b.id === id)?.name ?? `#${id}`;
  const tokenName = (id: number | null) => (id === null ? "" : tokens.data?.items.find((x) => x.id === id)?.name ?? t("revoked token #{id}", { id }));

  return (
    <Page title={t("AI access")} actions={<Link href="/settings">{t("Settings")}</Link>}>
      <p class="muted">{t("Give an AI assistant (through the Model Context Protocol) a token that shows only what its grade allows. Assistants never change the ledger: they draft changes, which you commit here.")}</p>
      <ErrorNote error={error} />
      {note && <p class="note" role="status">{note}</p>}
      <div class="grid-2">
        <form class="card form" onSubmit={create} aria-labelledby="h-ai-new">
          <h2 id="h-ai-new">{t("New assistant token")}</h2>
          <Field label={t("Name")}>{(id) => <input id={id} required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("Data grade")}>{(id) => <Select id={id} value={grade} options={(["full", "relative", "aggregate"] as const).map((g) => ({ value: g, label: gradeLabel(g) }))} onChange={(v) => setGrade(v as Grade)} />}</Field>
          {grade === "full" && <label><input type="checkbox" checked={write} onChange={(e) => setWrite((e.target as HTMLInputElement).checked)} /> {t("Let the assistant commit its own drafts")}</label>}
          <fieldset>
            <legend>{t("Brokers (none chosen: all of them)")}</legend>
            {brokers.data?.items.map((b) => (
              <label key={b.id}><input type="checkbox" checked={chosen.includes(b.id)}
                onChange={(e) => setChosen((e.target as HTMLInputElement).checked ? [...chosen, b.id] : chosen.filter((x) => x !== b.id))} /> {b.name}</label>
            ))}
          </fieldset>
          <button type="submit" class="primary">{t("Create token")}</button>
        </form>
        {created && (
          <section class="card" aria-labelledby="h-ai-secret">
            <h2 id="h-ai-secret">{t("Token {name} created", { name: created.name })}</h2>
            <p>{t("Copy it now: it is not shown again.")}</p>
            <code data-testid="ai-secret">{created.secret}</code>
            {snippets(url, created.secret).map(([client, text]) => (
              <div key={client}>
                <h3>{client}</h3>
                <pre>{text}</pre>
                <button type="button" onClick={() => copy(text)} aria-label={t("Copy the {client} configuration", { client })}>{t("Copy")}</button>
              </div>
            ))}
          </section>
        )}
        <section class="card wide" aria-labelledby="h-ai-tokens">
          <h2 id="h-ai-tokens">{t("Assistant tokens")}</h2>
          {tokens.loading && !tokens.data && <Loading />}
          {tokens.data && (mcpTokens.length === 0 ? <p class="muted">{t("No assistant token yet.")}</p> : (
            <div class="table-wrap"><table class="table compact phone-cards">
              <thead><tr><th scope="col">{t("Name")}</th><th scope="col">{t("Data grade")}</th><th scope="col">{t("Brokers")}</th><th scope="col">{t("Last used")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
              <tbody>{mcpTokens.map((x) => (
                <tr key={x.id}>
                  <td>{x.name} {x.scope === "read-write" && <Badge kind="warning">{t("may commit")}</Badge>}</td>
                  <td data-label={t("Data grade")}>{gradeLabel(x.mcp!.grade)}</td>
                  <td data-label={t("Brokers")}>{x.mcp!.broker_ids ? x.mcp!.broker_ids.map(brokerName).join(", ") : t("all")}</td>
                  <td data-label={t("Last used")}>{x.last_used_at ? formatDateTime(x.last_used_at, locale) : t("never")}</td>
                  <td><button type="button" class="ghost" onClick={() => revoke(x.id)} aria-label={t("Revoke {name}", { name: x.name })}>{t("Revoke")}</button></td>
                </tr>
              ))}</tbody>
            </table></div>
          ))}
        </section>
        <section class="card wide" aria-labelledby="h-ai-drafts">
          <h2 id="h-ai-drafts">{t("Pending drafts")}</h2>
          <ErrorNote error={drafts.error} />
          {drafts.data && (drafts.data.items.length === 0 ? <p class="muted">{t("No pending draft.")}</p> : (
            <ul class="log">{drafts.data.items.map((d) => (
              <li key={d.id}>
                {formatDateTime(d.created_at, locale)}: {t("{creates} new, {updates} changed, {deletes} deleted", { creates: d.rows.creates.length, updates: d.rows.updates.length, deletes: d.rows.deletes.length })}
                {" "}{d.validation.issues.length > 0 && <Badge kind="error">{t("{count} issues", { count: d.validation.issues.length })}</Badge>}
                {" "}{d.duplicates.likely.length + d.duplicates.possible.length > 0 && <Badge kind="warning">{t("{count} possible duplicates", { count: d.duplicates.likely.length + d.duplicates.possible.length })}</Badge>}
                <pre>{JSON.stringify(d.rows.creates.length ? d.rows.creates : d.rows, null, 1)}</pre>
                <button type="button" class="primary" onClick={() => decide(d.id, "commit")}>{t("Commit")}</button>{" "}
                <button type="button" onClick={() => decide(d.id, "discard")}>{t("Discard")}</button>
              </li>
            ))}</ul>
          ))}
        </section>
        <section class="card wide" aria-labelledby="h-ai-audit">
          <h2 id="h-ai-audit">{t("Assistant activity")}</h2>
          <p class="muted">{t("Every tool call and resource read of your assistants, newest first: never what they asked or were answered.")}</p>
          <ErrorNote error={audit.error} />
          {audit.loading && !audit.data && <Loading />}
          {audit.data && (audit.data.items.length === 0 && auditOffset === 0 ? <p class="muted">{t("No assistant activity yet.")}</p> : (
            <>
              <div class="table-wrap"><table class="table compact phone-cards">
                <thead><tr><th scope="col">{t("When")}</th><th scope="col">{t("Assistant token")}</th><th scope="col">{t("Tool or resource")}</th><th scope="col">{t("Data grade")}</th><th scope="col">{t("Outcome")}</th></tr></thead>
                <tbody>{audit.data.items.map((r, i) => (
                  <tr key={`${auditOffset}-${i}`}>
                    <td>{formatDateTime(r.time, locale)}</td>
                    <td data-label={t("Assistant token")}>{tokenName(r.token_id)}</td>
                    <td data-label={t("Tool or resource")}><code>{r.name}</code> {r.kind === "resource" && <span class="muted">{t("(resource)")}</span>}</td>
                    <td data-label={t("Data grade")}>{r.grade === "full" || r.grade === "relative" || r.grade === "aggregate" ? gradeLabel(r.grade) : r.grade}</td>
                    <td data-label={t("Outcome")}>{r.outcome === "ok" ? <Badge kind="ok">{t("answered")}</Badge> : <><Badge kind="error">{t("failed")}</Badge> <code>{r.outcome}</code></>}</td>
                  </tr>
                ))}</tbody>
              </table></div>
              <p>
                <button type="button" disabled={auditOffset === 0} onClick={() => setAuditOffset(Math.max(0, auditOffset - AUDIT_PAGE))}>{t("Newer")}</button>{" "}
                <button type="button" disabled={audit.data.next_offset === null} onClick={() => setAuditOffset(audit.data!.next_offset ?? auditOffset)}>{t("Older")}</button>
              </p>
            </>
          ))}
        </section>
      </div>
    </Page>
  );
}
