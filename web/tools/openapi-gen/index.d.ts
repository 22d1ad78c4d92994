/** The two openapi-typescript functions web/scripts/gen-api.ts uses. */
export function openapiTS(doc: object, options?: { alphabetize?: boolean }): Promise<unknown>;
export function astToString(ast: unknown): string;
