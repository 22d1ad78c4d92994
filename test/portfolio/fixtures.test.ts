/**
 * Correctness fixtures of the portfolio report against hand-checked references
 * (test/fixtures/portfolios/, one scenario per file; see test/portfolio/fixture-runner.ts).
 * In process: each fixture is seeded through the app's handlers over its own fresh migrated
 * SQLite file and the report is computed by the engine directly (no server). The HTTP path is
 * covered by fixtures-http.test.ts, one smoke test per report section.
 */
import { test } from "bun:test";
import { FIXTURES } from "./fixture-list.ts";
import { runFixtureInProcess } from "./fixture-runner.ts";

for (const fx of FIXTURES) {
  test(fx.name, () => runFixtureInProcess(fx), 60_000);
}
