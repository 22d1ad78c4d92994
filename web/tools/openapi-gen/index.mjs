// openapi-typescript resolved from this folder, where its TypeScript 5 peer lives (see package.json).
export { default as openapiTS, astToString } from "openapi-typescript";
