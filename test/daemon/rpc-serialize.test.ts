/** The reply body: answers kept as JSON text are spliced in as they are, everything else is JSON.stringify's. */
import { expect, test } from "bun:test";
import { handleRpc, JsonText, serializeRpc, type Method } from "../../src/daemon/rpc.ts";

const answer = { path: "a \"quoted\" ü", hunks: [{ start: 1, end: 2 }], none: null };
const methods = (name: string): Method | undefined =>
  ({
    text: () => new JsonText(JSON.stringify(answer)),
    plain: () => answer,
    fail: () => {
      throw new Error("boom");
    },
  })[name];

test("a JsonText result reads back as the object it was made from, with the request's id", async () => {
  for (const id of [1, "x\"y", null]) {
    const out = await handleRpc(JSON.stringify({ jsonrpc: "2.0", id, method: "text" }), methods);
    expect(JSON.parse(serializeRpc(out!))).toEqual({ jsonrpc: "2.0", id, result: answer });
  }
});

test("a batch mixes spliced text, plain results and errors, in order", async () => {
  const body = JSON.stringify([
    { jsonrpc: "2.0", id: 1, method: "text" },
    { jsonrpc: "2.0", id: 2, method: "plain" },
    { jsonrpc: "2.0", id: 3, method: "fail" },
    { jsonrpc: "2.0", method: "text" },
  ]);
  const parsed = JSON.parse(serializeRpc((await handleRpc(body, methods))!));
  expect(parsed.map((r: any) => r.id)).toEqual([1, 2, 3]);
  expect(parsed[0].result).toEqual(answer);
  expect(parsed[1].result).toEqual(answer);
  expect(parsed[2].error.data.code).toBe("INTERNAL");
});
