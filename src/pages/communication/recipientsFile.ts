/**
 * News recipients uploaded from a file: a CSV (or plain text) with a name and an e-mail per line, in
 * either order, an optional header row, separated by commas, semicolons or tabs. Invalid lines are
 * reported by line number; duplicate e-mails are kept once.
 */
export interface UploadedRecipient {
  name: string | null;
  email: string;
}

export interface ParsedRecipients {
  recipients: UploadedRecipient[];
  /** "Line 3: not an e-mail address" */
  errors: string[];
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

function cells(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
    } else if (!quoted && (c === "," || c === ";" || c === "\t")) {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

export function parseRecipientsFile(text: string): ParsedRecipients {
  const recipients: UploadedRecipient[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  lines.forEach((raw, i) => {
    if (!raw.trim()) return;
    const row = cells(raw);
    const emailAt = row.findIndex((c) => EMAIL.test(c));
    if (emailAt < 0) {
      const header = row.some((c) => /^e-?mail$/i.test(c));
      if (!(i === 0 && header)) errors.push(`Line ${i + 1}: no valid e-mail address`);
      return;
    }
    const email = row[emailAt]!.toLowerCase();
    if (seen.has(email)) return;
    seen.add(email);
    const name = row.filter((_, j) => j !== emailAt).join(" ").trim() || null;
    recipients.push({ name, email });
  });
  return { recipients, errors };
}
