/** A small repository with the shapes history takes: renames, a copy, a merge, odd names, a binary, a sweeping commit. */
import { ALICE, BOB, CAROL, TestRepo, lines } from "./git-repo.ts";

export const ODD_NAMES = ["dir with space/file name.txt", "ünïcödé.txt", "tab\there.txt", 'quote".txt', "new\nline.txt", "-rf.txt"];

export function buildStoryRepo(): TestRepo {
  const r = new TestRepo();
  r.write("src/app.js", lines(...Array.from({ length: 12 }, (_, i) => `const a${i} = ${i};`)));
  r.write("README.md", lines("# Story", "", "A repo."));
  r.write("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 4]));
  for (const n of ODD_NAMES) r.write(n, lines(`odd ${n}`, "second"));
  r.commit("Start the story\n\nWith a body that explains\nwhy it starts.", ALICE);

  r.write("src/app.js", lines(...Array.from({ length: 12 }, (_, i) => (i >= 3 && i <= 5 ? `let a${i} = ${i * 10};` : `const a${i} = ${i};`))));
  r.write("README.md", lines("# Story", "", "A repo.", "More words."));
  r.commit("Tune app values", BOB);

  r.git("mv", "src/app.js", "src/main.js");
  r.write("src/main.js", lines("// main", ...Array.from({ length: 12 }, (_, i) => (i >= 3 && i <= 5 ? `let a${i} = ${i * 10};` : `const a${i} = ${i};`))));
  r.commit("Rename app to main", ALICE);

  r.git("checkout", "-q", "-b", "side");
  r.write("src/main.js", lines("// main, side", ...Array.from({ length: 12 }, (_, i) => (i >= 3 && i <= 5 ? `let a${i} = ${i * 10};` : `const a${i} = ${i};`))));
  r.write("test/main.test.js", lines("test('main', () => {});"));
  r.commit("Side: tests for main", CAROL);
  r.git("checkout", "-q", "main");
  r.write("README.md", lines("# Story", "", "A repo.", "More words.", "Even more."));
  r.write("src/util.js", lines(...Array.from({ length: 40 }, (_, i) => `export const u${i} = ${i};`)));
  r.commit("Add util", BOB);
  r.merge("side", "Merge side into main");

  r.write("src/main.js", lines("// main, side", "import './util.js';", ...Array.from({ length: 12 }, (_, i) => `const a${i} = ${i};`)));
  r.write("test/main.test.js", lines("test('main', () => {});", "test('util', () => {});"));
  r.commit("Main uses util", ALICE);

  r.write("src/util2.js", lines(...Array.from({ length: 40 }, (_, i) => `export const u${i} = ${i};`)));
  r.commit("Copy util to util2", CAROL);

  for (let i = 0; i < 60; i++) r.write(`gen/file${i}.txt`, lines(`generated ${i}`));
  r.write("src/main.js", lines("// main, side", "import './util.js';", ...Array.from({ length: 12 }, (_, i) => `const a${i} = ${i + 1};`)));
  r.commit("Sweeping generated change", BOB);

  r.write("src/main.js", lines("// main, side", "import './util.js';", ...Array.from({ length: 12 }, (_, i) => `const a${i} = ${i + 1};`), "export default a0;"));
  r.write("test/main.test.js", lines("test('main', () => {});", "test('util', () => {});", "test('default', () => {});"));
  r.write("README.md", lines("# Story", "", "A repo.", "More words.", "Even more.", "Default export."));
  r.commit("Export a default", ALICE);
  return r;
}
