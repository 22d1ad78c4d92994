import { afterAll, describe, expect, test } from "bun:test";
import { DataSource } from "typeorm";
import { BunSqliteForTypeORM } from "../../../host/db/bun-sqlite-driver.ts";

/**
 * Long statements (multi-row INSERTs of a batch commit or a price import) are compiled for each
 * execution instead of being kept compiled in TypeORM's statement cache (~1 MB each: the cache
 * held ~90 MB on the request thread after a large import, docs/decisions.md). Through TypeORM's
 * own query runner, with its cache, they must behave exactly like short ones.
 */
describe("bun:sqlite driver for TypeORM: long statements", async () => {
  const ds = new DataSource({ type: "better-sqlite3", driver: BunSqliteForTypeORM, database: ":memory:" } as never);
  await ds.initialize();
  afterAll(() => ds.destroy());
  await ds.query("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  const rows = 1_000;
  const insert = `INSERT INTO t (v) VALUES ${Array.from({ length: rows }, () => "(?)").join(", ")}`;

  test("a long multi-row INSERT run twice (the second time from TypeORM's cache) inserts both times", async () => {
    expect(insert.length).toBeGreaterThan(4096);
    await ds.query(insert, Array.from({ length: rows }, (_, i) => `a${i}`));
    await ds.query(insert, Array.from({ length: rows }, (_, i) => `b${i}`));
    expect(await ds.query("SELECT count(*) AS n FROM t")).toEqual([{ n: 2 * rows }]);
    expect(await ds.query("SELECT v FROM t WHERE id IN (1, 1000, 1001, 2000) ORDER BY id")).toEqual([{ v: "a0" }, { v: "a999" }, { v: "b0" }, { v: "b999" }]);
  });

  test("a long SELECT is read as rows, again and again with other parameters", async () => {
    const ids = Array.from({ length: 1_500 }, (_, i) => i + 1);
    const select = `SELECT id, v FROM t WHERE id IN (${ids.map(() => "?").join(", ")}) ORDER BY id`;
    expect(select.length).toBeGreaterThan(4096);
    const first = await ds.query(select, ids);
    expect(first).toHaveLength(1_500);
    expect(first[0]).toEqual({ id: 1, v: "a0" });
    expect(first[1_499]).toEqual({ id: 1_500, v: "b499" });
    // ids 1001..2500: the rows 1001..2000 exist.
    const second = await ds.query(select, ids.map((id) => id + rows));
    expect(second.map((r: { v: string }) => r.v)).toEqual(Array.from({ length: rows }, (_, i) => `b${i}`));
  });

  test("a failing long statement throws and leaves the connection usable", async () => {
    const bad = `${insert.replace("INTO t", "INTO missing_table")}`;
    await expect(ds.query(bad, Array.from({ length: rows }, () => "x"))).rejects.toThrow(/missing_table/);
    expect(await ds.query("SELECT count(*) AS n FROM t")).toEqual([{ n: 2 * rows }]);
  });
});

describe("the workers' SQLite reader: long statements", () => {
  test("a long IN list is read correctly, again with other parameters (compiled per run, not cached)", async () => {
    const { Database } = await import("bun:sqlite");
    const { sqliteSqlReader } = await import("../../../host/db/read-snapshot.ts");
    const db = new Database(":memory:");
    db.exec("CREATE TABLE p (id INTEGER PRIMARY KEY, close TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO p (close) VALUES (?)");
    for (let i = 1; i <= 3_000; i++) insert.run(`${i}.5`);
    const reader = sqliteSqlReader(db);
    const ids = Array.from({ length: 2_000 }, (_, i) => i + 1);
    const sql = `SELECT id, close FROM p WHERE id IN (${ids.map(() => "?").join(", ")}) ORDER BY id`;
    expect(sql.length).toBeGreaterThan(4096);
    const first = await reader.all<{ id: number; close: string }>(sql, ids);
    expect(first).toHaveLength(2_000);
    expect(first.at(-1)).toEqual({ id: 2_000, close: "2000.5" });
    // ids 1501..3500: rows 1501..3000 exist.
    const second = await reader.all<{ id: number; close: string }>(sql, ids.map((id) => id + 1_500));
    expect(second.map((r) => r.id)).toEqual(Array.from({ length: 1_500 }, (_, i) => i + 1_501));
    db.close();
  });
});
