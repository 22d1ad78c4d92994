import "reflect-metadata";
import { describe, expect, test } from "bun:test";
import { assetCandidates, type AssetHint, candidateIndex, findCandidates, type KnownAsset, nameSimilarity, selectedAsset } from "../../../core/brim/asset-candidates.calc.ts";
import { compatibleCodes, detect } from "../../../core/brim/detect.calc.ts";
import { findDuplicates, type ImportedFact, type LedgerFact } from "../../../core/brim/duplicates.calc.ts";
import { assignFakeAssets, fieldTodos, mergeFills, pairFx, toCreates, validateCreates } from "../../../core/brim/rows.calc.ts";
import type { ImportedTransaction, ImportFileMeta } from "../../../sdk/index.ts";

const tx = (t: Partial<ImportedTransaction> & Pick<ImportedTransaction, "type">): ImportedTransaction =>
  ({ date: "2024-01-05", quantity: "0", ...t }) as ImportedTransaction;
const eur = (amount: string) => ({ amount, currency: "EUR" }) as ImportedTransaction["cash"];
const usd = (amount: string) => ({ amount, currency: "USD" }) as ImportedTransaction["cash"];

describe("mergeFills: fills of one order become one row", () => {
  test("same order, type, day, asset and currency are summed; other orders and rows without an order stay", () => {
    const rows = [
      tx({ type: "BUY", isin: "X", orderId: "o1", quantity: "6" as never, cash: eur("-60"), row: 2 }),
      tx({ type: "FEE", isin: "X", orderId: "o1", cash: eur("-1"), row: 3 }),
      tx({ type: "BUY", isin: "X", orderId: "o1", quantity: "4" as never, cash: eur("-40.5"), row: 4 }),
      tx({ type: "BUY", isin: "X", orderId: "o2", quantity: "1" as never, cash: eur("-10"), row: 5 }),
      tx({ type: "DEPOSIT", cash: eur("5") }),
      tx({ type: "DEPOSIT", cash: eur("5") }),
    ];
    const { rows: merged, warnings } = mergeFills(rows);
    expect(merged.map((r) => [r.type, String(r.quantity), String(r.cash?.amount), r.row] as unknown[])).toEqual([
      ["BUY", "10", "-100.5", 2], ["FEE", "0", "-1", 3], ["BUY", "1", "-10", 5], ["DEPOSIT", "0", "5", undefined], ["DEPOSIT", "0", "5", undefined],
    ]);
    expect(warnings).toEqual([expect.objectContaining({ code: "fillsMerged", evidence: ["row 2", "row 4"] })]);
  });
});

describe("pairFx: exchange legs become linked pairs", () => {
  test("two legs of one key in two currencies share a link_uuid", () => {
    let n = 0;
    const { links, rows } = pairFx([tx({ type: "FX_CONVERSION", cash: eur("-10"), pairKey: "a" }), tx({ type: "FX_CONVERSION", cash: usd("11"), pairKey: "a" })], () => `u${++n}`);
    expect(links).toEqual(["u1", "u1"]);
    expect(rows.map((r) => r.type)).toEqual(["FX_CONVERSION", "FX_CONVERSION"]);
  });

  test("a leg without its partner, or a pair in one currency, becomes a WITHDRAWAL or DEPOSIT with a warning", () => {
    const { links, rows, warnings } = pairFx([
      tx({ type: "FX_CONVERSION", cash: eur("-10"), pairKey: "a" }),
      tx({ type: "FX_CONVERSION", cash: eur("10"), pairKey: "b" }), tx({ type: "FX_CONVERSION", cash: eur("-3"), pairKey: "b" }),
    ], () => "u");
    expect(links).toEqual([undefined, undefined, undefined]);
    expect(rows.map((r) => r.type)).toEqual(["WITHDRAWAL", "DEPOSIT", "WITHDRAWAL"]);
    expect(warnings.map((w) => w.code)).toEqual(["fxLegUnpaired", "fxLegUnpaired", "fxLegUnpaired"]);
  });
});

describe("fake asset ids, creates, the ledger's row checks and field todos", () => {
  const rows = [
    tx({ type: "BUY", isin: "ie00x", assetName: "Fund", quantity: "2" as never, cash: eur("-20") }),
    tx({ type: "DIVIDEND", isin: "IE00X", cash: eur("1") }),
    tx({ type: "DEPOSIT", isin: "IE00X", cash: eur("100") }),
    tx({ type: "SELL", quantity: "-1" as never, cash: eur("12") }),
    tx({ type: "ADJUSTMENT", symbol: "NEW", quantity: "3" as never }),
    tx({ type: "BUY", isin: "IE00X", quantity: "-2" as never, cash: eur("-20") }),
  ];
  const { assetOf, mappings } = assignFakeAssets(rows);
  const creates = toCreates(rows, 7, assetOf, rows.map(() => undefined));

  test("one fake id per distinct asset from 2147473647 up; asset-forbidden types get none", () => {
    expect(assetOf).toEqual([2147473647, 2147473647, undefined, undefined, 2147473648, 2147473647]);
    expect(mappings.map((m) => [m.fake_asset_id, m.extracted_isin, m.extracted_symbol, m.notices[0]!.transaction_indexes])).toEqual([
      [2147473647, "IE00X", undefined, [0, 1, 5]], [2147473648, undefined, "NEW", [4]],
    ]);
  });

  test("creates carry the ledger's field names; a zero cash is no cash", () => {
    expect(creates[0]).toEqual({ broker_id: 7, asset_id: 2147473647, type: "BUY", date: "2024-01-05", quantity: "2", cash: { code: "EUR", amount: "-20" } });
    expect(creates[4]).toEqual({ broker_id: 7, asset_id: 2147473648, type: "ADJUSTMENT", date: "2024-01-05", quantity: "3" });
  });

  test("validation_issues are the ledger's own per-row rules", () => {
    expect(validateCreates(creates).map((i) => [i.row, i.code])).toEqual([[3, "assetRequired"], [5, "qtyPositive"]]);
  });

  test("field_todos: an asset for rows that need one, a cost basis for units received without price", () => {
    expect(fieldTodos(creates, mappings, rows).map((t) => [t.tx_index, t.reason_code])).toEqual([
      [0, "assetUnmapped"], [1, "assetUnmapped"], [3, "assetMissing"], [4, "assetUnmapped"], [4, "costBasisMissing"], [5, "assetUnmapped"],
    ]);
    mappings[0]!.selected_asset_id = 1;
    expect(fieldTodos(creates, mappings, rows).map((t) => t.tx_index)).toEqual([3, 4, 4]);
  });
});

describe("duplicates: the four match levels", () => {
  const ledger: LedgerFact[] = [
    { id: 1, type: "BUY", date: "2024-01-05", quantity: "2", amount: "-20", currency: "EUR", assetId: 9 },
    { id: 2, type: "DEPOSIT", date: "2024-01-02", quantity: "0", amount: "100.00", currency: "EUR", assetId: null },
  ];
  const fact = (f: Partial<ImportedFact>): ImportedFact =>
    ({ type: "BUY", date: "2024-01-05", quantity: "2", amount: "-20.00", currency: "EUR", assetId: 9, assetNamed: true, ...f });

  test("likely_with_asset: same type, day, quantity, amount and asset", () => {
    expect(findDuplicates([fact({})], ledger).tx_likely_duplicates).toEqual([{ tx_index: 0, match_level: "likely_with_asset", existing_transaction_ids: [1] }]);
  });

  test("likely: the same without a known asset (unmapped, or a type without asset)", () => {
    const r = findDuplicates([fact({ assetId: null }), fact({ type: "DEPOSIT", date: "2024-01-02", quantity: "0", amount: "100", assetId: null, assetNamed: false })], ledger);
    expect(r.tx_likely_duplicates.map((d) => d.match_level)).toEqual(["likely", "likely"]);
  });

  test("possible_with_asset and possible: same amount within 3 days, or the same day with another quantity", () => {
    const r = findDuplicates([fact({ date: "2024-01-08" }), fact({ date: "2024-01-02", assetId: null }), fact({ quantity: "3" })], ledger);
    expect(r.tx_possible_duplicates.map((d) => [d.tx_index, d.match_level])).toEqual([[0, "possible_with_asset"], [1, "possible"], [2, "possible_with_asset"]]);
  });

  test("unique: another asset, another amount, or more than 3 days apart; a stored row is the likely twin of one imported row only", () => {
    const r = findDuplicates([fact({ assetId: 8 }), fact({ amount: "-21" }), fact({ date: "2024-01-09" }), fact({}), fact({})], ledger);
    expect(r.tx_unique_indices).toEqual([0, 1, 2]);
    expect(r.tx_likely_duplicates.map((d) => d.tx_index)).toEqual([3]);
    expect(r.tx_possible_duplicates.map((d) => d.tx_index)).toEqual([4]);
  });
});

describe("asset candidates", () => {
  const assets = [
    { id: 1, isin: "US0378331005", ticker: "AAPL", name: "Apple Inc." },
    { id: 2, isin: null, ticker: "APLE", name: "Apple Hospitality REIT" },
    { id: 3, isin: "IE00B3RBWM25", ticker: "VWRL", name: "Vanguard FTSE All-World UCITS ETF" },
  ];

  test("ISIN → exact, ticker → high (case-insensitive), name similarity → medium or low", () => {
    expect(assetCandidates({ extracted_isin: "us0378331005" }, assets).map((c) => [c.asset_id, c.match_confidence])).toEqual([[1, "exact"]]);
    expect(assetCandidates({ extracted_symbol: "vwrl" }, assets).map((c) => [c.asset_id, c.match_confidence])).toEqual([[3, "high"]]);
    expect(assetCandidates({ extracted_name: "APPLE INC" }, assets)[0]).toMatchObject({ asset_id: 1, match_confidence: "medium" });
    expect(nameSimilarity("Vanguard FTSE All-World", "Vanguard FTSE All-World UCITS ETF")).toBe(1);
    expect(nameSimilarity("Apple", "Zzyzx")).toBe(0);
  });

  test("selected_asset_id only when exactly one candidate is exact", () => {
    expect(selectedAsset(assetCandidates({ extracted_isin: "US0378331005" }, assets))).toBe(1);
    expect(selectedAsset(assetCandidates({ extracted_symbol: "AAPL" }, assets))).toBeNull();
    expect(selectedAsset(assetCandidates({ extracted_isin: "US0378331005" }, [...assets, { ...assets[0]!, id: 4 }]))).toBeNull();
  });

  test("the index answers as comparing the hint with every asset does (random names, ISINs and tickers)", () => {
    const RANK = { exact: 0, high: 1, medium: 2, low: 3 } as const;
    // The rule of docs/import.md applied to every asset, as the matching once was.
    type Found = { a: KnownAsset; level: keyof typeof RANK; score: number };
    const everyAsset = (hint: AssetHint, known: readonly KnownAsset[]) => known.flatMap((a): Found[] => {
      const isin = hint.extracted_isin?.trim().toUpperCase();
      const symbol = hint.extracted_symbol?.trim().toUpperCase();
      const name = hint.extracted_name?.trim();
      if (isin && a.isin?.toUpperCase() === isin) return [{ a, level: "exact", score: 1 }];
      if (symbol && a.ticker?.toUpperCase() === symbol) return [{ a, level: "high", score: 1 }];
      const score = name ? nameSimilarity(name, a.name) : 0;
      return score >= 0.8 ? [{ a, level: "medium", score }] : score >= 0.5 ? [{ a, level: "low", score }] : [];
    }).sort((p, q) => RANK[p.level] - RANK[q.level] || q.score - p.score || p.a.id - q.a.id).slice(0, 10).map((f) => [f.a.id, f.level]);
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const words = ["Apple", "Inc", "Corp", "Global", "Equity", "ETF", "UCITS", "Ltd", "Société", "Générale", "A", "x", "Bond", "Fund", "the", "Class A", "&", "Ño"];
    const name = () => Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => words[Math.floor(rnd() * words.length)]).join(rnd() < 0.2 ? "" : " ");
    const known: KnownAsset[] = Array.from({ length: 400 }, (_, i) => ({
      id: i + 1, name: name(), isin: rnd() < 0.5 ? `US${Math.floor(rnd() * 50)}` : null, ticker: rnd() < 0.5 ? `t${Math.floor(rnd() * 50)}` : null,
    }));
    const index = candidateIndex(known);
    for (let h = 0; h < 500; h++) {
      const hint: AssetHint = {};
      if (rnd() < 0.5) hint.extracted_isin = rnd() < 0.1 ? "" : `us${Math.floor(rnd() * 60)}`;
      if (rnd() < 0.5) hint.extracted_symbol = ` T${Math.floor(rnd() * 60)} `;
      if (rnd() < 0.8) hint.extracted_name = rnd() < 0.05 ? "  " : name();
      expect(findCandidates(hint, index).map((c) => [c.asset_id, c.match_confidence])).toEqual(everyAsset(hint, known));
    }
  });
});

describe("detection: confidence, then detection_priority, with a reason for every verdict", () => {
  const file = (f: Partial<ImportFileMeta>): ImportFileMeta => ({ extension: "csv", filename: "a.csv", format: "text", head: "h", sizeBytes: 10, ...f });
  const plugin = (code: string, c: number, priority = 100, ext = ["csv"]) => ({ code, detectionPriority: priority, supportedExtensions: ext, instance: { accepts: () => c } });

  test("compatible plugins by confidence then priority; zero confidence is left out", () => {
    const verdicts = detect(file({}), [plugin("b", 0.5, 100), plugin("a", 0.5, 10), plugin("c", 0.9), plugin("z", 0)]);
    expect(compatibleCodes(verdicts)).toEqual(["c", "a", "b"]);
    expect(verdicts.find((v) => v.code === "z")!.reason).toBe("the plugin does not recognise the content");
  });

  test("empty files, PDFs, binaries and spreadsheets for text-only plugins stop before accepts(), each with its reason", () => {
    const p = [plugin("a", 1)];
    expect(detect(file({ sizeBytes: 0 }), p)[0]!.reason).toBe("the file is empty");
    expect(detect(file({ format: "pdf" }), p)[0]!.reason).toContain("PDF");
    expect(detect(file({ format: "binary" }), p)[0]!.reason).toContain("neither text");
    expect(detect(file({ format: "xlsx" }), p)[0]!.reason).toBe("the plugin reads no spreadsheets");
  });

  test("an accepts() that throws counts as zero with its message", () => {
    const broken = { code: "x", detectionPriority: 1, supportedExtensions: ["csv"], instance: { accepts: () => { throw new Error("boom"); } } };
    expect(detect(file({}), [broken])[0]).toMatchObject({ confidence: 0, reason: "accepts() failed: boom" });
  });

  test("detection at upload and parse gives other requests a turn between importers, with the same verdicts", async () => {
    const { BrimFileService } = await import("../../../core/brim/brim-file.service.ts");
    // The first importer's accepts() works past the 5 ms slice and queues other work; the second sees whether it ran.
    let otherWorkRan = false;
    let secondSaw = false;
    const slow = plugin("slow", 0.4);
    slow.instance.accepts = () => {
      setImmediate(() => { otherWorkRan = true; });
      const start = performance.now();
      while (performance.now() - start < 8);
      return 0.4;
    };
    const second = plugin("second", 0.9);
    second.instance.accepts = () => { secondSaw = otherWorkRan; return 0.9; };
    const plugins = [slow, second, plugin("none", 0)];
    const directory = { list: () => plugins };
    const service = new BrimFileService({} as never, {} as never, {} as never, directory as never);
    const verdicts = await service.detectMeta(file({}));
    expect(secondSaw).toBe(true);
    expect(verdicts).toEqual(detect(file({}), plugins));
    expect(compatibleCodes(verdicts)).toEqual(["second", "slow"]);
  });
});

describe("parse_is_stale", () => {
  test("true when the plugin that made the last parse now has another version or is gone; false before any parse", async () => {
    const { BrimFileService } = await import("../../../core/brim/brim-file.service.ts");
    const versions: Record<string, string> = { broker_x: "1.1.0" };
    const directory = { get: (code: string) => (versions[code] ? { version: versions[code] } : undefined), list: () => [], parse: async () => ({ ok: false, message: "" }) };
    const service = new BrimFileService({} as never, {} as never, {} as never, directory as never);
    const file = (code: string | null, version: string | null) => ({ parsedPluginCode: code, parsedPluginVersion: version }) as never;
    expect(service.isStale(file(null, null))).toBe(false);
    expect(service.isStale(file("broker_x", "1.1.0"))).toBe(false);
    expect(service.isStale(file("broker_x", "1.0.0"))).toBe(true);
    expect(service.isStale(file("broker_gone", "1.0.0"))).toBe(true);
  });
});
