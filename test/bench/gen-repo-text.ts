/** The generator's text: the vocabulary, the team of authors, and the lines and commit messages it writes from them. */
import type { Random } from "./gen-repo-random.ts";

export const WORDS = (
  "alpha buffer cache delta event frame graph handle index job key layer model node option parser queue route store " +
  "token update value worker batch client config daemon entry filter group hash input kernel limit merge network output " +
  "packet query record schema table timer user vector window zone blame commit branch diff hunk patch tree blob ref tag " +
  "author range scope stream socket signal state trace metric report render format loader plugin module bundle logger " +
  "policy session ticket widget cursor anchor bridge cluster domain engine factor gate hook image ledger mirror notice " +
  "orbit pivot quota relay shard tensor unit vault"
).split(" ");
export const VERBS = ["Fix", "Add", "Refactor", "Improve", "Update", "Handle", "Simplify", "Clean up", "Support", "Tweak", "Document", "Speed up"];
const OPS = ["<", ">", "===", "!==", "<=", ">="];
const INDENT = ["", "  ", "    ", "      "];
export const LARGE_SUBJECTS = ["Reformat the code base", "Update license headers", "Apply new lint rules", "Rename shared helpers across the tree"];

/** Name, email, timezone; the weights give the skew of a real team (one lead, a long tail). */
export const AUTHORS: readonly (readonly [string, string, string])[] = [
  ["Avery Quinn", "avery@bench.lore.example", "+0000"],
  ["Blake Ortiz", "blake@bench.lore.example", "-0700"],
  ["Casey Nakamura", "casey@bench.lore.example", "+0900"],
  ["Devon Okafor", "devon@bench.lore.example", "+0100"],
  ["Emery Lindqvist", "emery@bench.lore.example", "+0200"],
  ["Finley Duarte", "finley@bench.lore.example", "-0300"],
  ["Gray Moreau", "gray@bench.lore.example", "+0100"],
  ["Harper Iyer", "harper@bench.lore.example", "+0530"],
  ["Indigo Kowalski", "indigo@bench.lore.example", "-0500"],
  ["Jules Abara", "jules@bench.lore.example", "+1000"],
];
export const AUTHOR_WEIGHTS = [34, 20, 13, 9, 7, 5, 4, 3, 3, 2];
export const EXTS: readonly (readonly [string, number])[] = [["ts", 45], ["tsx", 8], ["js", 8], ["test.ts", 12], ["md", 8], ["json", 6], ["yml", 4], ["css", 5], ["sh", 4]];

const CAPITALIZED = WORDS.map((w) => w[0]!.toUpperCase() + w.slice(1));

function ident(r: Random): string {
  const w = r.pick(WORDS);
  return r.chance(0.5) ? w + r.pick(CAPITALIZED) : r.chance(0.3) ? w + r.int(100) : w;
}

export function words(r: Random, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.pick(WORDS));
  return out.join(" ");
}

/** One line of a file; random numbers and identifiers keep lines distinct, so blame and rename detection have something to hold. */
export function line(r: Random, kind: string): string {
  if (kind === "md") {
    const k = r.int(8);
    return k === 0 ? "" : k === 1 ? `## ${words(r, 3)}` : `${words(r, 6 + r.int(9))}.`;
  }
  if (kind === "json" || kind === "yml") return kind === "json" ? `  "${ident(r)}": ${r.int(10000)},` : `${INDENT[r.int(3)]}${ident(r)}: ${r.pick(WORDS)}-${r.int(1000)}`;
  const ind = INDENT[r.int(4)]!;
  switch (r.int(12)) {
    case 0:
    case 1:
      return "";
    case 2:
      return `${ind}}`;
    case 3:
      return `${ind}// ${words(r, 3 + r.int(7))}`;
    case 4:
      return `${ind}const ${ident(r)} = ${ident(r)}(${ident(r)}, ${r.int(1000)});`;
    case 5:
      return `${ind}if (${ident(r)} ${r.pick(OPS)} ${r.int(1000)}) {`;
    case 6:
      return `${ind}return ${ident(r)}.${ident(r)}(${ident(r)});`;
    case 7:
      return `${ind}${ident(r)}.${ident(r)} = ${r.int(10000)};`;
    case 8:
      return `${ind}export function ${ident(r)}(${ident(r)}: ${ident(r)}): number {`;
    case 9:
      return `${ind}for (const ${ident(r)} of ${ident(r)}) ${ident(r)}(${ident(r)});`;
    case 10:
      return `${ind}let ${ident(r)} = "${words(r, 1 + r.int(4))}";`;
    default:
      return `${ind}await ${ident(r)}.${ident(r)}(${r.int(100)}, ${ident(r)});`;
  }
}

export function message(r: Random, subject: string): string {
  if (!r.chance(0.35)) return subject + "\n";
  const paras: string[] = [];
  for (let p = r.range(1, 3); p > 0; p--) {
    const rows: string[] = [];
    for (let l = r.range(1, 4); l > 0; l--) rows.push(words(r, r.range(7, 12)));
    paras.push(rows.join("\n"));
  }
  if (r.chance(0.3)) paras.push(`Refs: #${r.range(1, 5000)}`);
  return `${subject}\n\n${paras.join("\n\n")}\n`;
}
