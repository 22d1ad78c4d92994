import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type pg from "pg";
import { PREPARED_MAX_PARAMETERS, postgresPool } from "../../host/db/postgres.ts";
import { createTestDatabase, dropTestDatabase, ON_POSTGRES, PG_ADMIN_ENV } from "../helpers/postgres.ts";

/**
 * Connections to PostgreSQL prepare their parameterised statements (host/db/postgres.ts; docs/deploy.md
 * "Prepared statements"): parsed and planned once per connection, then only bound and executed.
 * Runs in the PostgreSQL tier (`npm run test:postgres`).
 */
let url = "";

beforeAll(async () => {
  if (ON_POSTGRES) url = await createTestDatabase(process.env[PG_ADMIN_ENV]!);
});

afterAll(async () => {
  if (url) await dropTestDatabase(process.env[PG_ADMIN_ENV]!, url);
});

/** The statements this connection prepared whose text holds `marker`, with how often each ran. */
async function prepared(client: pg.PoolClient, marker: string): Promise<{ statement: string; runs: number }[]> {
  const rows = (await client.query(`SELECT statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%' AND statement NOT LIKE '%pg_prepared_statements%'`, [marker])).rows;
  return rows as { statement: string; runs: number }[];
}

async function withClient<T>(env: string | undefined, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const before = process.env.DATABASE_PREPARED_STATEMENTS;
  if (env === undefined) delete process.env.DATABASE_PREPARED_STATEMENTS;
  else process.env.DATABASE_PREPARED_STATEMENTS = env;
  const pool = postgresPool(url, 1);
  try {
    const client = await pool.connect();
    try { return await work(client); } finally { client.release(); }
  } finally {
    await pool.end();
    if (before === undefined) delete process.env.DATABASE_PREPARED_STATEMENTS;
    else process.env.DATABASE_PREPARED_STATEMENTS = before;
  }
}

describe.if(ON_POSTGRES)("prepared statements on PostgreSQL", () => {
  test("a parameterised statement is prepared once per connection and then reused", async () => {
    await withClient(undefined, async (client) => {
      for (let i = 0; i < 3; i++) expect((await client.query(`SELECT CAST(? AS integer) + 1 AS reused_marker`, [i])).rows).toEqual([{ reused_marker: i + 1 }]);
      expect(await prepared(client, "reused_marker")).toEqual([{ statement: `SELECT CAST($1 AS integer) + 1 AS reused_marker`, runs: 3 }]);
    });
  });

  test("statements without parameters, or with more than the limit, are not prepared", async () => {
    await withClient(undefined, async (client) => {
      await client.query(`SELECT 1 AS plain_marker`);
      const ids = Array.from({ length: PREPARED_MAX_PARAMETERS + 1 }, (_, i) => i);
      const rows = (await client.query(`SELECT x AS long_marker FROM generate_series(0, 100) x WHERE x IN (${ids.map(() => "?").join(",")})`, ids)).rows;
      expect(rows.length).toBe(PREPARED_MAX_PARAMETERS + 1);
      expect(await prepared(client, "plain_marker")).toEqual([]);
      expect(await prepared(client, "long_marker")).toEqual([]);
    });
  });

  test("statements whose columns come from a * are not prepared (a newer version's migration may add a column under a kept plan)", async () => {
    await withClient(undefined, async (client) => {
      await client.query(`CREATE TEMP TABLE star_marker_t (a integer)`);
      await client.query(`INSERT INTO star_marker_t (a) VALUES (?) RETURNING *`, [1]);
      expect((await client.query(`SELECT * FROM star_marker_t WHERE a = ?`, [1])).rows).toEqual([{ a: 1 }]);
      const aliased = `SELECT s.*, s.a AS again FROM star_marker_t s WHERE s.a = ?`;
      expect((await client.query(aliased, [1])).rows).toEqual([{ a: 1, again: 1 }]);
      // What a kept plan would have failed: the table gains a column, and the same statement runs again.
      await client.query(`ALTER TABLE star_marker_t ADD COLUMN b integer`);
      expect((await client.query(`SELECT * FROM star_marker_t WHERE a = ?`, [1])).rows).toEqual([{ a: 1, b: null }]);
      expect((await client.query(aliased, [1])).rows).toEqual([{ a: 1, b: null, again: 1 }]);
      expect((await client.query(`SELECT a, * FROM star_marker_t WHERE a = ?`, [1])).rows).toEqual([{ a: 1, b: null }]);
      expect(await prepared(client, "star_marker")).toEqual([]);
      // A count is no column list: prepared.
      expect((await client.query(`SELECT count(*) AS counted_marker FROM star_marker_t WHERE a = ?`, [1])).rows).toEqual([{ counted_marker: 1 }]);
      expect((await prepared(client, "counted_marker")).length).toBe(1);
    });
  });

  test("DATABASE_PREPARED_STATEMENTS=0 turns them off (a pooler that cannot keep them)", async () => {
    await withClient("0", async (client) => {
      await client.query(`SELECT CAST(? AS integer) AS off_marker`, [1]);
      await client.query(`SELECT CAST(? AS integer) AS off_marker`, [2]);
      expect(await prepared(client, "off_marker")).toEqual([]);
    });
  });
});
