import { randomInt } from "node:crypto";
import { PASSWORD_MAX_LENGTH as PASSWORD_MAX, PASSWORD_MIN_LENGTH as PASSWORD_MIN } from "../../src/domain/passwords.ts";

/** Password rules (issue 4 §2, OWASP ASVS 2.1): lengths from src/domain/passwords.ts, common passwords refused. */
export { PASSWORD_MAX, PASSWORD_MIN };

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX} characters.`,
  common: "This password is too common. Please choose another one.",
  sameAsUsername: "Password must not be the same as the username.",
} as const;

/** A small list of the most common passwords (lower-cased); compared case-insensitively. */
const COMMON_PASSWORDS = new Set([
  "password", "password1", "password12", "password123", "password1234", "passw0rd", "p@ssw0rd", "p@ssword",
  "12345678", "123456789", "1234567890", "12341234", "11111111", "00000000", "87654321", "11223344",
  "qwertyui", "qwerty12", "qwerty123", "qwerty1234", "qwertyuiop", "1q2w3e4r", "1qaz2wsx", "zaq12wsx",
  "iloveyou", "iloveyou1", "sunshine", "princess", "football", "baseball", "welcome1", "welcome123",
  "abc12345", "abcd1234", "admin123", "admin1234", "administrator", "letmein1", "trustno1", "superman",
  "starwars", "whatever", "changeme", "computer", "michelle", "jennifer", "dragon12", "monkey12",
  "asdfghjk", "asdf1234", "aa123456", "a1234567", "123qweasd", "q1w2e3r4", "secret123", "master12",
  "demo1234", "test1234", "testtest", "guest123", "default1", "singapore", "singapore1",
]);

/** Null when the password is acceptable, else the reason. */
export function passwordProblem(password: string, username?: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX) return PASSWORD_MESSAGES.tooLong;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return PASSWORD_MESSAGES.common;
  if (username && password.toLowerCase() === username.toLowerCase()) return PASSWORD_MESSAGES.sameAsUsername;
  return null;
}

/** A random temporary password that passes the rules (mailed to new users; changed at first sign-in). */
export function temporaryPassword(): string {
  const sets = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnopqrstuvwxyz", "23456789", "@#%*!?"];
  const all = sets.join("");
  const chars = sets.map((s) => s[randomInt(s.length)]);
  while (chars.length < 14) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join("");
}

/** Spec part 1 §8, word for word. */
export const LOCKED_ACCOUNT_MESSAGE =
  "Your account has been locked due to multiple failed login attempts. Kindly contact the administrator to unlock it.";
