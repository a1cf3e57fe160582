/** Every question's --help and docs/reference.md list every flag its parser takes: they come from one declaration. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { questionOptions } from "../../src/cli/flags.ts";
import { QUERIES } from "../../src/queries/index.ts";
import { cli } from "../helpers/lore.ts";

const reference = readFileSync(join(import.meta.dir, "../../docs/reference.md"), "utf8");

/** docs/reference.md's section for one question, up to the next. */
function section(name: string): string {
  const start = reference.indexOf(`\n## ${name}\n`);
  const end = reference.indexOf("\n## ", start + 1);
  return reference.slice(start, end < 0 ? undefined : end);
}

describe("every flag a question takes is in its help and in the reference", () => {
  for (const q of QUERIES) {
    test(`lore ${q.name}`, () => {
      const help = cli(process.cwd(), [q.name, "--help"]);
      expect(help.code).toBe(0);
      const doc = section(q.name);
      expect(doc.length).toBeGreaterThan(0);
      for (const [long, spec] of Object.entries(questionOptions(q))) {
        // A flag of one letter is typed with one dash (-L); others with two, and their short letter with one.
        const spellings = long.length === 1 ? [`-${long}`] : [`--${long}`, ...(spec.short ? [`-${spec.short}`] : [])];
        for (const flag of spellings) {
          expect({ flag, inHelp: new RegExp(`(^|[\\s,\`\\[])${flag.replace(/[-]/g, "\\-")}\\b`, "m").test(help.stdout) }).toEqual({ flag, inHelp: true });
          expect({ flag, inReference: doc.includes(`\`${flag}`) || doc.includes(`, ${flag}`) }).toEqual({ flag, inReference: true });
        }
      }
    });
  }

  test("blame's help lists -L with the forms it takes", () => {
    const help = cli(process.cwd(), ["blame", "--help"]).stdout;
    expect(help).toMatch(/^\s+-L START,END\s+\S/m);
    expect(help).toContain(":NAME");
  });
});
