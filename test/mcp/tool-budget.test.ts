import { expect, test } from "bun:test";
import { modelFacingBytes, toolListings } from "../../src/mcp/tools.ts";

/** With alwaysLoad, every tool's name, description and input schema reach the model on every turn (DESIGN: budgets). */
const BUDGET = 8192;

test(`the model-facing part of tools/list stays within ${BUDGET} bytes for all tools together`, () => {
  const { total, tools } = modelFacingBytes();
  const table = Object.entries(tools)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ");
  expect({ total, within: total <= BUDGET, table }).toEqual({ total, within: true, table });
  for (const n of Object.values(tools)) expect(n).toBeGreaterThan(100);
});

/** Room under the budget for what comes next: the 18 tools of today, lore_suspects and lore_branches among them, take 7,912 bytes. */
const TODAY = 7950;

test(`the tools of today take at most ${TODAY} bytes of it, leaving room for the next ones`, () => {
  expect(modelFacingBytes().total).toBeLessThanOrEqual(TODAY);
});

test("a tool's input schema says nothing the model does not use: no dialect line, no closed-object flag (the server refuses an unknown argument by name)", () => {
  for (const t of toolListings()) expect(Object.keys(t.inputSchema).sort()).toEqual(["properties", "type", ...(t.inputSchema.required ? ["required"] : [])].sort());
});
