/** Groups failure messages of the conformance harness by cause for the progress report. */

/** The first failure line, with values masked, so that the same engine gap groups together. */
export function failureCause(message: string): string {
  const first = message.split("\n")[0].replace(/^Error: /, "");
  let m = /^setup failed: (.*)$/.exec(first);
  if (m) {
    const err = /^.*? failed: HTTP \d+ [^:]*: (.*)$/.exec(m[1]);
    return `setup failed: ${mask(err ? err[1] : m[1].slice(0, 120))}`;
  }
  const body = first.replace(/^\[(http|websocket)\] step \d+\/\d+( \(.*?\))? \S+: /, "");
  const transport = /^\[(http|websocket)\]/.exec(first)?.[1] ?? "";
  const tag = transport === "websocket" ? "[ws] " : "";
  m = /unexpected errors?: \[?\{"message":"((?:[^"\\]|\\.)*)"/.exec(body);
  if (m) return `${tag}unexpected error: ${mask(m[1])}`;
  m = /^HTTP (\d+), expected (\d+); body (.*)$/.exec(body);
  if (m) {
    const msg = /"(?:message|error)":"((?:[^"\\]|\\.)*)"/.exec(m[3]);
    return `${tag}HTTP ${m[1]} instead of ${m[2]}${msg ? `: ${mask(msg[1])}` : ""}`;
  }
  m = /expected (errors?) .*, got/.exec(body);
  if (m) return `${tag}expected ${m[1]}, got data`;
  m = /^(\$[^:]*): (missing keys|unexpected keys|expected \d+ items|expected an? \w+|key order|expected)/.exec(body);
  if (m) return `${tag}wrong data: ${m[2].replace(/\d+/g, "N")}`;
  if (/websocket/.test(body)) return `${tag}${mask(body.slice(0, 100))}`;
  return `${tag}${mask(body.slice(0, 100))}`;
}

function mask(s: string): string {
  return s
    .replace(/\\"/g, '"')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b\d+\b/g, "N")
    .slice(0, 140);
}
