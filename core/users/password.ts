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

/** The command-line tool's stricter rule (SPEC Authentication 9). Returns the unmet requirements. */
export function strictPasswordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push("at least 8 characters");
  if (!/[A-Z]/.test(password)) problems.push("an upper-case letter");
  if (!/[a-z]/.test(password)) problems.push("a lower-case letter");
  if (!/[0-9]/.test(password)) problems.push("a digit");
  if (!/[^A-Za-z0-9]/.test(password)) problems.push("a symbol");
  return problems;
}
