/**
 * The password policy of every path that sets a password (registration, password change, reset,
 * the command-line tool) and of the web app's forms, which import this module to show the unmet
 * requirements as the user types (docs/security.md "Passwords"). It imports nothing, so the
 * browser bundle takes it as it is: one implementation of the rule, never a copy.
 */

/** The shortest password any path accepts. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * Every requirement, in the order they are listed: at least PASSWORD_MIN_LENGTH characters, not
 * one of the most common passwords, more than one or two different characters, not the account's
 * own user name or e-mail address. The server words them in English, the web app in the user's
 * language.
 */
export const PASSWORD_REQUIREMENTS = ["min_length", "common", "few_distinct", "is_name"] as const;
export type PasswordRequirement = (typeof PASSWORD_REQUIREMENTS)[number];

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
 * The requirements the password does not meet, in PASSWORD_REQUIREMENTS order; empty when it is
 * acceptable. Length counts characters, not bytes.
 */
export function unmetPasswordRequirements(password: string, owner: PasswordOwner = {}): PasswordRequirement[] {
  const unmet: PasswordRequirement[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) unmet.push("min_length");
  const folded = password.toLowerCase();
  const stem = folded.replace(/[^\p{L}]+$/u, "");
  if (COMMON.has(folded) || (stem.length >= 4 && COMMON.has(stem))) unmet.push("common");
  // Each requirement on its own, so a form never ticks one the password fails ("11111111" has one character).
  if (new Set(folded).size <= 2) unmet.push("few_distinct");
  const names = [owner.username, owner.email, owner.email?.split("@")[0]].filter((n): n is string => !!n && n.length >= 3).map((n) => n.toLowerCase());
  if (names.some((n) => folded === n || stem === n)) unmet.push("is_name");
  return unmet;
}
