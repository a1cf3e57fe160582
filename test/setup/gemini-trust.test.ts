/** lore doctor and Gemini CLI's folder trust: doctor says what `gemini mcp list` shows in the folder (the real gemini 0.61 from node_modules, a private HOME), and how to trust it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loreCommand } from "../helpers/lore-argv.ts";
import { AgentHome } from "./agent-env.ts";

interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  message: string;
  fix?: string;
}

let h: AgentHome;
let project: string;
/** The test's environment as a person's shell has it: no variable that trusts every folder. */
const untrusted = () => ({ ...h.env(), GEMINI_CLI_TRUST_WORKSPACE: "" });
const trustFile = () => join(h.home, ".gemini", "trustedFolders.json");

/** doctor's gemini trust check in the project folder (and its text for people, when asked). */
function doctor(text = false): { text: string; trust: Check | undefined } {
  const env = untrusted();
  const run = (args: string[]) => {
    const c = loreCommand(args);
    return spawnSync(c.command, c.args, { cwd: project, env, encoding: "utf8" });
  };
  const checks = JSON.parse(run(["doctor", "--json"]).stdout).checks as Check[];
  return { text: text ? run(["doctor"]).stdout : "", trust: checks.find((c) => c.name === "gemini trust") };
}

/** What gemini itself says of lore in the project folder. */
function geminiList(): string {
  const r = spawnSync(join(h.bin, "gemini"), ["mcp", "list"], { cwd: project, env: untrusted(), encoding: "utf8", timeout: 90_000 });
  return (r.stdout + r.stderr).split("\n").find((l) => l.includes("lore:")) ?? "";
}

beforeAll(() => {
  h = new AgentHome(["gemini"]);
  mkdirSync(join(h.home, ".gemini"), { recursive: true });
  writeFileSync(join(h.home, ".gemini", "settings.json"), '{ "privacy": { "usageStatisticsEnabled": false } }\n');
  expect(h.lore(["setup", "--client", "gemini"]).code).toBe(0);
  project = join(h.dir, "work", "project");
  mkdirSync(project, { recursive: true });
});
afterAll(() => h.cleanup());

describe("doctor and Gemini CLI's folder trust", () => {
  test("an untrusted folder: gemini shows lore Disabled, and doctor says so, with how to trust it, not All good", () => {
    rmSync(trustFile(), { force: true });
    expect(geminiList()).toContain("Disabled");
    const d = doctor(true);
    expect(d.trust).toMatchObject({ status: "warn" });
    expect(d.trust!.message).toContain(`does not trust ${project}`);
    expect(d.trust!.message).toContain("gemini mcp list shows lore Disabled");
    expect(d.trust!.fix).toContain("/permissions trust");
    expect(d.trust!.fix).toContain(trustFile());
    expect(d.text).not.toContain("All good.");
  }, 120_000);

  test("a folder marked DO_NOT_TRUST is said to be so", () => {
    writeFileSync(trustFile(), JSON.stringify({ [project]: "DO_NOT_TRUST" }));
    expect(geminiList()).toContain("Disabled");
    const d = doctor();
    expect(d.trust).toMatchObject({ status: "warn" });
    expect(d.trust!.message).toContain("DO_NOT_TRUST");
  }, 120_000);

  test("trusting the folder as doctor's fix says (or its parent) makes gemini start lore, and doctor ok", () => {
    // gemini itself is asked once (it starts lore: seconds); the other rules are read as its trust.ts reads them.
    writeFileSync(trustFile(), JSON.stringify({ [join(h.dir, "work", "x")]: "TRUST_PARENT" }));
    expect(geminiList()).not.toContain("Disabled");
    expect(doctor().trust).toMatchObject({ status: "ok" });
    for (const rules of [{ [project]: "TRUST_FOLDER" }, { [h.dir]: "TRUST_FOLDER", [join(h.dir, "elsewhere")]: "DO_NOT_TRUST" }]) {
      writeFileSync(trustFile(), JSON.stringify(rules));
      expect(doctor().trust).toMatchObject({ status: "ok" });
    }
    // The longest rule wins: a trusted parent, the project itself not.
    writeFileSync(trustFile(), JSON.stringify({ [h.dir]: "TRUST_FOLDER", [project]: "DO_NOT_TRUST" }));
    expect(doctor().trust).toMatchObject({ status: "warn" });
  }, 120_000);

  test("folder trust turned off in settings: doctor says gemini starts lore everywhere", () => {
    rmSync(trustFile(), { force: true });
    const settings = join(h.home, ".gemini", "settings.json");
    const text = spawnSync("cat", [settings], { encoding: "utf8" }).stdout;
    writeFileSync(settings, text.replace('"privacy"', '"security": { "folderTrust": { "enabled": false } },\n  "privacy"'));
    expect(doctor().trust).toMatchObject({ status: "ok" });
  }, 120_000);
});
