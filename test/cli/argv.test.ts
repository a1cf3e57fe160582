import { expect, test } from "bun:test";
import { ArgvError, parseArgv } from "../../src/cli/argv.ts";

const OPTIONS = { json: { type: "boolean" }, limit: { type: "string", short: "n" }, L: { type: "string", short: "L" }, until: { type: "string" } } as const;

test("long, short, inline and separate values, and -- before positionals", () => {
  expect(parseArgv(["blame", "--json", "-n", "5", "-L10,20", "--until=HEAD~1", "--", "-rf.txt"], OPTIONS)).toEqual({
    beforeDashDash: 1,
    values: { json: true, limit: "5", L: "10,20", until: "HEAD~1" },
    positionals: ["blame", "-rf.txt"],
  });
  expect(parseArgv(["-n5", "--limit", "7", "-"], OPTIONS)).toEqual({ values: { limit: "7" }, positionals: ["-"] });
});

test("unknown options, missing values and values that look like options are refused", () => {
  for (const bad of [["--bogus"], ["-x"], ["--limit"], ["--until", "--output=x"], ["--json=yes"], ["-rf.txt"]]) expect(() => parseArgv(bad, OPTIONS)).toThrow(ArgvError);
  expect(parseArgv(["--until=--output=x"], OPTIONS).values.until).toBe("--output=x");
});

import { parseCommand as parseQuestion } from "../../src/cli/flags.ts";
import { defineQuery } from "../../src/queries/define.ts";

const listQuery = defineQuery({
  name: "demo",
  summary: "",
  description: "",
  args: {
    rev: { type: "string", positional: true, text: true, description: "" },
    paths: { type: "strings", positional: true, description: "" },
  },
  output: (z) => z.object({}),
  load: async () => ({ run: async () => ({}) }),
});

test("positionals go to the positional arguments in order: a text one as typed, a list of paths resolved", () => {
  const cmd = parseQuestion(listQuery as never, ["HEAD~2", "a.ts", "src"], "/r");
  expect(cmd.input.rev).toBe("HEAD~2");
  expect(cmd.input.paths).toEqual(["/r/a.ts", "/r/src"]);
  expect(parseQuestion(listQuery as never, [], "/r").input.paths).toEqual([]);
});
