import { expect, test } from "bun:test";
import { modelFacingBytes } from "../../src/mcp/tools.ts";

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
