import { Foundation1795000000000 } from "./1795000000000-Foundation.ts";

/** Every migration in order. Append-only: a merged migration is never edited. */
export const migrations = [Foundation1795000000000];
