/** CODEOWNERS as GitHub and GitLab read it: rules (gitignore-like patterns, last match wins), GitLab's [sections], and the lines that cannot be read. Pure. */

export interface CodeownersRule {
  pattern: string;
  owners: string[];
  /** The GitLab section it is in ('' outside any). */
  section: string;
  line: number;
  match: RegExp;
}

export interface Codeowners {
  rules: CodeownersRule[];
  /** "line N: why" for each line that cannot be read (left out; the rest still counts). */
  errors: string[];
}

/** An owner: @user, @org/team, or an email address. */
const OWNER = /^(?:@[\w.-]+(?:\/[\w.-]+)?|[^@\s]+@[^@\s]+\.[^@\s]+)$/;
/** GitLab: [Section name][N] @default owners, optionally ^ (optional section). */
const SECTION = /^\^?\[([^\]]+)\](?:\[\d+\])?((?:\s+\S+)*)\s*$/;

function escape(c: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c;
}

/** A gitignore-style pattern as a regular expression over repository paths. */
export function patternRegex(pattern: string): RegExp {
  let p = pattern;
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.startsWith("/") || p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  let body = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "*" && p[i + 1] === "*") {
      const slash = p[i + 2] === "/";
      body += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") body += "[^/]*";
    else if (c === "?") body += "[^/]";
    else body += escape(c);
  }
  // docs/* owns docs' own files, not those of folders below it (GitHub's rule); anything else owns what is under a matched folder.
  const tail = /(?:^|\/)\*$/.test(p) && !p.endsWith("**") ? "" : dirOnly ? "/.*" : "(?:/.*)?";
  return new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}${tail}$`);
}

/** Reads a CODEOWNERS file; a line it cannot read is named in errors and left out. */
export function parseCodeowners(text: string): Codeowners {
  const rules: CodeownersRule[] = [];
  const errors: string[] = [];
  let section = "";
  let sectionOwners: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/(^|[^\\])#.*$/, "$1").trim();
    if (!line) return;
    const n = i + 1;
    if (line.startsWith("[") || line.startsWith("^[")) {
      const m = SECTION.exec(line);
      if (!m) return void errors.push(`line ${n}: a section header must read [Name] followed by owners, not ${JSON.stringify(raw.trim())}`);
      section = m[1]!.trim();
      sectionOwners = m[2]!.trim().split(/\s+/).filter(Boolean);
      const bad = sectionOwners.find((o) => !OWNER.test(o));
      if (bad) errors.push(`line ${n}: ${JSON.stringify(bad)} is not an owner (@user, @org/team or an email)`);
      sectionOwners = sectionOwners.filter((o) => OWNER.test(o));
      return;
    }
    const [pattern, ...named] = line.replace(/\\ /g, "\0").split(/\s+/).map((t) => t.replace(/\0/g, " "));
    const bad = named.find((o) => !OWNER.test(o));
    if (bad) return void errors.push(`line ${n}: ${JSON.stringify(bad)} is not an owner (@user, @org/team or an email)`);
    if (pattern!.startsWith("!") || pattern!.includes("[")) return void errors.push(`line ${n}: ${JSON.stringify(pattern)}: CODEOWNERS patterns take no ! or [ ]`);
    rules.push({ pattern: pattern!, owners: named.length ? named : sectionOwners, section, line: n, match: patternRegex(pattern!) });
  });
  return { rules, errors };
}

/** The declared owners of a path: the last rule that matches it in each section (GitLab's sections each add theirs). */
export function ownersOf(c: Codeowners, path: string): string[] {
  const last = new Map<string, CodeownersRule>();
  for (const r of c.rules) if (r.match.test(path)) last.set(r.section, r);
  return [...new Set([...last.values()].flatMap((r) => r.owners))];
}
