import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { generateSchema, openapiDocument, SCHEMA_FILE } from "../../web/scripts/gen-api.ts";

// The web app's API types are generated from the API's own OpenAPI document. A route or schema
// change that was not followed by `npm run gen:api` fails here instead of at runtime in a browser.
test("web/src/api/schema.d.ts is what `npm run gen:api` generates from the current OpenAPI document", async () => {
  const expected = await generateSchema(await openapiDocument());
  const actual = readFileSync(SCHEMA_FILE, "utf8");
  if (actual !== expected) {
    throw new Error("web/src/api/schema.d.ts is out of date: run `npm run gen:api` and commit the result");
  }
  expect(actual).toContain('"/api/v1/portfolio/report"');
}, 60_000);
