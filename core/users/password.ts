import { PASSWORD_MIN_LENGTH, type PasswordOwner, type PasswordRequirement, unmetPasswordRequirements } from "./password-policy.ts";

export type { PasswordOwner } from "./password-policy.ts";

/** Password hashing with argon2id (slow on purpose). */
export function hashPassword(plain: string): Promise<string> {
  return Bun.password.hash(plain, { algorithm: "argon2id" });
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return Bun.password.verify(plain, hash).catch(() => false);
}

/** A real hash of nothing, verified against when the account does not exist, so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyVerify(plain: string): Promise<boolean> {
  dummyHash ??= hashPassword("not-a-real-password");
  return dummyHash.then((h) => verifyPassword(plain, h)).then(() => false);
}

/** The server's words for each requirement, as `params.unmet` and the 422's detail carry them. */
const PHRASES: Readonly<Record<PasswordRequirement, string>> = {
  min_length: `at least ${PASSWORD_MIN_LENGTH} characters`,
  common: "not one of the most common passwords",
  few_distinct: "more than one or two different characters",
  is_name: "not your user name or e-mail address",
};

/**
 * The password policy of every path: registration, password change, reset and the command-line
 * tool (docs/security.md "Passwords"; the rule itself is password-policy.ts, shared with the web
 * app). Returns the unmet requirements as short phrases ("at least 8 characters"); empty when the
 * password is acceptable.
 */
export function passwordProblems(password: string, owner: PasswordOwner = {}): string[] {
  const unmet = unmetPasswordRequirements(password, owner);
  // The API's words name "few different characters" only when it is the password's length or commonness that is fine.
  const words = unmet.includes("min_length") || unmet.includes("common") ? unmet.filter((code) => code !== "few_distinct") : unmet;
  return words.map((code) => PHRASES[code]);
}

/**
 * The command-line tool's rule: the policy above plus character classes (an upper-case letter, a
 * lower-case letter, a digit and a symbol), as the contract asks of the tool and its help text says.
 * Every password the API refuses it refuses, naming the same requirements first.
 */
export function strictPasswordProblems(password: string, owner: PasswordOwner = {}): string[] {
  const problems = passwordProblems(password, owner);
  if (!/[A-Z]/.test(password)) problems.push("an upper-case letter");
  if (!/[a-z]/.test(password)) problems.push("a lower-case letter");
  if (!/[0-9]/.test(password)) problems.push("a digit");
  if (!/[^A-Za-z0-9]/.test(password)) problems.push("a symbol");
  return problems;
}
