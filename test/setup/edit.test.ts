import { describe, expect, test } from "bun:test";
import { jsonEntry } from "../../src/setup/edit/json-entry.ts";
import { BLOCK_BEGIN, BLOCK_END, markedBlock } from "../../src/setup/edit/marked-block.ts";
import { tomlTable } from "../../src/setup/edit/toml-table.ts";

const entry = { command: "/opt/lore/bin/lore", args: ["mcp"] };
const json = jsonEntry(["mcpServers"]);
const toml = tomlTable("mcp_servers");
const message = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  return "no error";
};

describe("lore's entry in a JSON or JSONC file", () => {
  test("is added after the user's last entry, in the file's own indentation, and taken out again to the byte", () => {
    for (const text of ['{\n  // mine\n  "a": 1\n}\n', '{\n    "mcpServers": {\n        "x": { "command": "y" }\n    }\n}\n', '{\n\t"a": 1,\n}\n', '{"a":1}']) {
      const set = json.set("f", text, entry);
      expect(json.read("f", set)).toEqual(entry);
      expect(json.remove("f", set)).toBe(text);
    }
    expect(json.set("f", '{\n    "mcpServers": {\n        "x": { "command": "y" }\n    }\n}\n', entry)).toBe(
      '{\n    "mcpServers": {\n        "x": { "command": "y" },\n        "lore": {\n            "command": "/opt/lore/bin/lore",\n            "args": ["mcp"]\n        }\n    }\n}\n',
    );
  });

  test("an entry of lore's with other values is replaced where it stands", () => {
    const text = '{\n  "mcpServers": {\n    "lore": { "command": "/old/lore" },\n    "z": {}\n  }\n}\n';
    expect(json.set("f", text, entry)).toBe('{\n  "mcpServers": {\n    "lore": {\n      "command": "/opt/lore/bin/lore",\n      "args": ["mcp"]\n    },\n    "z": {}\n  }\n}\n');
  });

  test("a file with nothing in it gets a whole document", () => {
    expect(json.set("f", "", entry)).toBe('{\n  "mcpServers": {\n    "lore": {\n      "command": "/opt/lore/bin/lore",\n      "args": ["mcp"]\n    }\n  }\n}\n');
    expect(json.read("f", "  // only a comment\n")).toBeUndefined();
  });

  test("what is not an object where lore's entry goes is refused with its line", () => {
    expect(message(() => json.read("f", "[1, 2]"))).toBe("f, line 1: is not a JSON object; lore left it as it is");
    expect(message(() => json.set("f", '{\n  "mcpServers": []\n}', entry))).toBe('f, line 2: its "mcpServers" is not an object; lore left the file as it is');
    expect(message(() => json.read("f", '{\n  "a": 1\n  "b": 2\n}'))).toBe("f, line 3: is not valid JSON (CommaExpected); lore left it as it is. Fix it, then run lore setup again");
  });
});

describe("lore's [mcp_servers.lore] table in a TOML file", () => {
  const user = '# mine\nmodel = "o3" # fav\n\n[mcp_servers.docs]\ncommand = "x"  # keep\nargs = [ "a" ]\n';

  test("is appended after a blank line, every other byte kept, and taken out again to the byte", () => {
    const set = toml.set("f", user, entry);
    expect(set).toBe(`${user}\n[mcp_servers.lore]\ncommand = "/opt/lore/bin/lore"\nargs = ["mcp"]\n`);
    expect(toml.remove("f", set)).toBe(user);
  });

  test("an old table of lore's, with its sub-tables, is replaced in place; the comment leading into the next table stays", () => {
    const text = '[mcp_servers.lore]\ncommand = "/old"\n[mcp_servers.lore.env]\nA = "1"\n\n# profiles\n[profiles.p]\nmodel = "y"\n';
    expect(toml.set("f", text, entry)).toBe('[mcp_servers.lore]\ncommand = "/opt/lore/bin/lore"\nargs = ["mcp"]\n\n# profiles\n[profiles.p]\nmodel = "y"\n');
  });

  test("a header inside a multi-line string is not taken for lore's table", () => {
    const text = 'notes = """\n[mcp_servers.lore]\n"""\n';
    expect(toml.read("f", text)).toBeUndefined();
    expect(toml.remove("f", toml.set("f", text, entry))).toBe(text);
  });

  test("what lore cannot change inside its own table alone is refused", () => {
    expect(message(() => toml.set("f", 'mcp_servers = { lore = { command = "x" } }\n', entry))).toContain("defines mcp_servers.lore other than as its own [mcp_servers.lore] table");
    expect(message(() => toml.set("f", 'mcp_servers = { docs = { command = "x" } }\n', entry))).toContain("could not confine its change to its own [mcp_servers.lore] table");
    expect(message(() => toml.read("f", "a = 1\nb = \n"))).toMatch(/^f, line 2: is not valid TOML/);
  });
});

describe("lore's block in an instructions file", () => {
  test("goes after the user's text, is replaced in place, and leaves with the blank line before it", () => {
    const set = markedBlock.set("f", "# Mine", "v1");
    expect(set).toBe(`# Mine\n\n${BLOCK_BEGIN}\nv1\n${BLOCK_END}\n`);
    const more = `${set}\nafter\n`;
    expect(markedBlock.set("f", more, "v2")).toBe(`# Mine\n\n${BLOCK_BEGIN}\nv2\n${BLOCK_END}\n\nafter\n`);
    expect(markedBlock.read("f", more)).toBe("v1");
    expect(markedBlock.remove("f", `# Mine\n\n${BLOCK_BEGIN}\nv1\n${BLOCK_END}\n`)).toBe("# Mine\n");
  });

  test("two begin markers are refused with the line of the second", () => {
    expect(message(() => markedBlock.read("f", `${BLOCK_BEGIN}\n${BLOCK_BEGIN}\n${BLOCK_END}\n`))).toContain("f, line 2: has lore's block markers out of order");
  });
});

test("docs/agents.md shows the instructions block as setup writes it (for Cursor's User Rules)", async () => {
  const { INSTRUCTIONS_TEXT } = await import("../../src/setup/instructions-text.ts");
  const docs = await Bun.file(new URL("../../docs/agents.md", import.meta.url)).text();
  expect(docs).toContain("```markdown\n" + INSTRUCTIONS_TEXT + "\n```");
});

test("a file with Windows line ends keeps them, and --uninstall gives it back to the byte", async () => {
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { removeEntry, setEntry } = await import("../../src/setup/edit/apply.ts");
  const dir = mkdtempSync(join(tmpdir(), "lore-eol-"));
  const saved = process.env.LORE_HOME;
  process.env.LORE_HOME = join(dir, "lore");
  try {
    const file = join(dir, "mcp.json");
    const text = '{\r\n  "servers": {\r\n    "a": {}\r\n  }\r\n}\r\n';
    writeFileSync(file, text);
    const t = { file, format: jsonEntry(["servers"]), label: "lore" };
    expect(setEntry(t, entry, false).status).toBe("changed");
    expect(readFileSync(file, "utf8")).not.toMatch(/[^\r]\n/);
    expect(setEntry(t, entry, false).status).toBe("unchanged");
    const md = join(dir, "AGENTS.md");
    writeFileSync(md, "# Mine\r\n");
    expect(setEntry({ file: md, format: markedBlock, label: "block" }, "one\ntwo", false).status).toBe("changed");
    expect(setEntry({ file: md, format: markedBlock, label: "block" }, "one\ntwo", false).status).toBe("unchanged");
    expect(removeEntry(t, false).status).toBe("changed");
    expect(readFileSync(file, "utf8")).toBe(text);
  } finally {
    if (saved === undefined) delete process.env.LORE_HOME;
    else process.env.LORE_HOME = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});
