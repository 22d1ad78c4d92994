import type { IsoDate } from "../dates.ts";
import { PluginError } from "../errors.ts";
import type { Decimal } from "../money.ts";
import { parseDate } from "./dates.ts";
import { type DecimalMark, parseDecimal } from "./numbers.ts";

/**
 * One broker document's text lines with the lookups its parser makes; every failure is a
 * `PluginError` `invalid-input` starting with the document's name, so a preview of many documents
 * says which one could not be read.
 */
export interface PdfDocument {
  readonly lines: readonly string[];
  readonly name: string;
  /** An amount as written ("1.234,56", "-0,5", "12.5") in the document's decimal mark; throws when it is none. */
  num(value: string | undefined): Decimal;
  /** An amount with its sign written after it, as German banks print balances ("1.030,40" and "-": -1030.4). */
  signed(figure: string, sign: string): Decimal;
  /** A day written "31.12.2025" or "2025-12-31" as an ISO date; throws when it is none or impossible. */
  date(value: string): IsoDate;
  /** The first line from `from` (included) to `to` (excluded) matching `re`, with its groups, or null. */
  find(re: RegExp, from?: number, to?: number): RegExpExecArray | null;
  /** The index of the first line from `from` to `to` matching `re`, or -1. */
  indexOf(re: RegExp, from?: number, to?: number): number;
  /** `value` unless null; null throws "<name>: <what> was not found". */
  need<T>(value: T | null, what: string): T;
  /**
   * Throws when the document cancels an earlier one (a line starting or ending with "Storno" or
   * "Stornierung", as "STORNO DIVIDENDE" or "Dividendenabrechnung STORNO"): its figures are the
   * cancelled event's, and reading them as a trade or a dividend would book that event twice.
   */
  refuseCancellation(): void;
}

/** A text line's columns, as `pdfText` keeps them apart: the text between runs of two or more spaces, each trimmed, blanks left out. */
export function pdfCells(line: string): string[] {
  return line.split(/\s{2,}/).map((c) => c.trim()).filter((c) => c !== "");
}

const CANCELLATION = /^(storno|stornierung)\b|\b(storno|stornierung)$/i;

/** Options of {@link pdfDocument}: the decimal mark of its amounts (default `"auto"`, decided per value as `parseDecimal` does). */
export interface PdfDocumentOptions {
  readonly decimalMark?: DecimalMark;
}

/**
 * A broker document (a contract note, a dividend notice) over its text lines, as an importer of
 * PDFs reads it: `lines` as the parser prepared them (trimmed, blank ones dropped), `name` the
 * file's name for messages.
 * Example: `pdfDocument("note.pdf", lines, { decimalMark: "," }).num("1.234,50")` is `1234.5`.
 */
export function pdfDocument(name: string, lines: readonly string[], options: PdfDocumentOptions = {}): PdfDocument {
  const mark = options.decimalMark ?? "auto";
  const indexOf = (re: RegExp, from = 0, to = lines.length): number => {
    for (let i = from; i < to; i++) if (re.test(lines[i]!)) return i;
    return -1;
  };
  return {
    lines,
    name,
    num(value) {
      const parsed = value === undefined ? null : parseDecimal(value.replace(/\s/g, ""), mark);
      if (!parsed) throw new PluginError("invalid-input", `${name}: "${value ?? ""}" is not a number`);
      return parsed;
    },
    signed(figure, sign) {
      return sign === "-" ? this.num(figure).neg() : this.num(figure);
    },
    date(value) {
      const day = /^\d{2}\.\d{2}\.\d{4}$|^\d{4}-\d{2}-\d{2}$/.test(value) ? parseDate(value, "DMY") : null;
      if (!day) throw new PluginError("invalid-input", `${name}: "${value}" is not a date`);
      return day;
    },
    find(re, from = 0, to = lines.length) {
      for (let i = from; i < to; i++) {
        const m = re.exec(lines[i]!);
        if (m) return m;
      }
      return null;
    },
    indexOf,
    need(value, what) {
      if (value === null) throw new PluginError("invalid-input", `${name}: ${what} was not found`);
      return value;
    },
    refuseCancellation() {
      if (indexOf(CANCELLATION) < 0) return;
      throw new PluginError("invalid-input", `${name}: a cancellation (Storno) of an earlier document is not imported; leave out or delete the transactions of the document it cancels`);
    },
  };
}
