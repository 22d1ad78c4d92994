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

/** The shortest password any path accepts. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * Passwords that lists of leaked passwords put first (each at least 8 characters, lower-cased):
 * guessed in the first attempts of any attack, so refused whatever their length. Compared after
 * lower-casing and dropping a trailing run of digits and symbols ("Password123!" is "password").
 */
const COMMON = new Set([
  "password", "passw0rd", "p@ssword", "p@ssw0rd", "passwort", "motdepasse", "contrasena", "contraseña", "wachtwoord", "senha",
  "12345678", "123456789", "1234567890", "87654321", "11111111", "00000000", "12341234", "11223344", "01234567", "88888888",
  "qwertyuiop", "qwertyui", "qwerty", "qwertz", "azerty", "asdfghjk", "asdfghjkl", "zxcvbnm", "1q2w3e4r", "1qaz2wsx", "qazwsxedc",
  "iloveyou", "sunshine", "princess", "football", "baseball", "welcome", "whatever", "trustno1", "superman", "starwars", "dragon",
  "letmein", "admin", "administrator", "changeme", "default", "monkey", "master", "shadow", "michael", "jennifer", "computer",
  "internet", "secret", "abc12345", "abcdefgh", "abcd1234", "aa123456", "portfolio", "investment", "investor", "money",
]);

/** What the caller knows about the account, so its own name cannot be the password. */
export interface PasswordOwner {
  username?: string;
  email?: string;
}

/**
 * The password policy of every path: registration, password change, reset and the command-line
 * tool (docs/security.md "Passwords"). Returns the unmet requirements as short phrases ("at least
 * 8 characters"); empty when the password is acceptable. Length counts characters, not bytes.
 */
export function passwordProblems(password: string, owner: PasswordOwner = {}): string[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) problems.push(`at least ${PASSWORD_MIN_LENGTH} characters`);
  const folded = password.toLowerCase();
  const stem = folded.replace(/[^\p{L}]+$/u, "");
  if (COMMON.has(folded) || (stem.length >= 4 && COMMON.has(stem))) problems.push("not one of the most common passwords");
  else if (length >= PASSWORD_MIN_LENGTH && new Set(folded).size <= 2) problems.push("more than one or two different characters");
  const names = [owner.username, owner.email, owner.email?.split("@")[0]].filter((n): n is string => !!n && n.length >= 3).map((n) => n.toLowerCase());
  if (names.some((n) => folded === n || stem === n)) problems.push("not your user name or e-mail address");
  return problems;
}

/**
 * The command-line tool's rule: the policy above plus character classes (an upper-case letter, a
 * lower-case letter, a digit and a symbol), as its help text says.
 */
export function strictPasswordProblems(password: string, owner: PasswordOwner = {}): string[] {
  const problems = passwordProblems(password, owner);
  if (!/[A-Z]/.test(password)) problems.push("an upper-case letter");
  if (!/[a-z]/.test(password)) problems.push("a lower-case letter");
  if (!/[0-9]/.test(password)) problems.push("a digit");
  if (!/[^A-Za-z0-9]/.test(password)) problems.push("a symbol");
  return problems;
}
