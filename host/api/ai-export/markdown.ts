/** Rough tokens of a text for chat models: about four characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object" && !Array.isArray(value) && "amount" in value && "code" in value) {
    const m = value as { amount: string; code: string };
    return `${m.amount} ${m.code}`;
  }
  if (Array.isArray(value)) return value.map(cell).join(", ") || "–";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).replaceAll("|", "\\|").replaceAll("\n", " ");
}

const isRow = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const flat = (v: unknown) => !Array.isArray(v) && !(isRow(v) && !("amount" in v && "code" in v));

function table(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => flat(r[k]))))];
  if (columns.length === 0) return "";
  const lines = [`| ${columns.join(" | ")} |`, `|${columns.map(() => "---").join("|")}|`];
  for (const r of rows) lines.push(`| ${columns.map((c) => cell(r[c])).join(" | ")} |`);
  return lines.join("\n");
}

function render(value: unknown, depth: number): string {
  const heading = "#".repeat(Math.min(depth, 6));
  if (Array.isArray(value)) {
    if (value.length === 0) return "(none)";
    if (value.every(isRow)) {
      const nested = value.flatMap((r) => Object.entries(r).filter(([, v]) => !flat(v)));
      if (nested.length === 0) return table(value);
      // rows with nested lists (one asset's prices, one asset's lots): one section each
      return value.map((r) => {
        const title = cell(r.asset ?? r.pair ?? r.name ?? "");
        const scalars = Object.entries(r).filter(([, v]) => flat(v)).map(([k, v]) => `- ${k}: ${cell(v)}`).join("\n");
        const parts = Object.entries(r).filter(([, v]) => !flat(v)).map(([k, v]) => `${heading}# ${k}\n\n${render(v, depth + 2)}`);
        return [`${heading} ${title}`, scalars, ...parts].filter(Boolean).join("\n\n");
      }).join("\n\n");
    }
    return value.map((v) => `- ${cell(v)}`).join("\n");
  }
  if (isRow(value)) {
    const scalars = Object.entries(value).filter(([, v]) => flat(v)).map(([k, v]) => `- ${k}: ${cell(v)}`);
    const nested = Object.entries(value).filter(([, v]) => !flat(v)).map(([k, v]) => `${heading} ${k}\n\n${render(v, depth + 1)}`);
    return [scalars.join("\n"), ...nested].filter(Boolean).join("\n\n");
  }
  return cell(value);
}

export interface MarkdownInput {
  analysis?: { id: string; instructions: string; response: string; version: number };
  data: Record<string, unknown>;
  datasets: { id: string; title: string; version: number }[];
  detailLevel: string;
  masked: boolean;
  period: { start: string; end: string };
  targetCurrency: string;
  userNotes?: string;
}

/**
 * The snapshot for a chat assistant: a header (what, period, currency, detail), the analysis'
 * instructions and response contract when one was selected, the datasets, then every component once
 * (tables for lists of rows, bullet lists for figures). Deterministic: no clock, no ids of users.
 */
export function renderMarkdown(input: MarkdownInput): string {
  const parts: string[] = [];
  const what = input.analysis ? `Analysis ${input.analysis.id} v${input.analysis.version}` : `Dataset ${input.datasets[0]!.id} v${input.datasets[0]!.version}`;
  parts.push(`# Portfolio data for an AI assistant: ${what}`);
  parts.push([
    `- period: ${input.period.start} to ${input.period.end}`,
    `- currency: ${input.targetCurrency}`,
    `- detail: ${input.detailLevel}`,
    `- amounts: ${input.masked ? "masked (shares and percentages only)" : "shown"}`,
  ].join("\n"));
  if (input.analysis) {
    parts.push(`## Instructions\n\n${input.analysis.instructions}`);
    parts.push(`## Response contract\n\n${input.analysis.response}`);
  }
  if (input.userNotes) parts.push(`## Notes from the user\n\n${input.userNotes}`);
  parts.push(`## Datasets\n\n${input.datasets.map((d) => `- ${d.title} (${d.id} v${d.version})`).join("\n")}`);
  for (const [component, value] of Object.entries(input.data)) {
    parts.push(`## ${component}\n\n${render(value, 3)}`);
  }
  return `${parts.join("\n\n")}\n`;
}
