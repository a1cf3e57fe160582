/**
 * The text the model reads of a question that answers in text (show): a commit's id in 12 hex, its
 * author's name and its day on one line (`commit 1a2b… by Ann on 2024-05-01`), as the JSON copies
 * have them, and its files as `M path +1 -2`, one space apart (the
 * columns a person's terminal lines up were a tenth of a small commit's tokens). A file's text is
 * left as it is.
 */

type Row = Record<string, unknown>;

export function compactText(question: string, answer: unknown, text: string): string {
  const commit = !!answer && typeof answer === "object" && !("text" in answer) && typeof (answer as Row).sha === "string";
  if (question !== "show" || !commit) return text;
  const head = text
    .replace(/^commit ([0-9a-f]{12})(?:[0-9a-f]{28}|[0-9a-f]{52})(?=\n|$)/, "commit $1")
    .replace(/^(Date: +\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}Z$/m, "$1")
    // Who and when on the commit's line (the author's email is contributors' answer): a quarter of a small commit's tokens.
    .replace(/^(commit [0-9a-f]{12})(\nMerge: [^\n]*)?\nAuthor: ([^\n]*?)(?: <[^<>\n]*>)?\nDate: +(\d{4}-\d{2}-\d{2})\n/, "$1 by $3 on $4$2\n");
  return unpadFiles(head, Array.isArray((answer as Row).files) ? ((answer as Row).files as Row[]) : []);
}

/** Each file's line (status, name, counts: in the answer's order) with single spaces; every other line as it was. */
function unpadFiles(text: string, files: Row[]): string {
  let next = 0;
  return text
    .split("\n")
    .map((line) => {
      const f = files[next];
      if (!f) return line;
      const label = f.oldPath !== undefined ? `${f.oldPath} → ${f.path}` : String(f.path);
      const status = String(f.status ?? "M");
      const m = line.startsWith(status + " ") ? /^ +/.exec(line.slice(status.length)) : null;
      const rest = m ? line.slice(status.length + m[0].length) : "";
      if (!m || !rest.startsWith(label) || !/^(?: +\S.*)?$/.test(rest.slice(label.length))) return line;
      next++;
      const tail = rest.slice(label.length).trim();
      return `${status} ${label}${tail ? ` ${tail}` : ""}`;
    })
    .join("\n");
}
