/** The daemon's face on its Unix socket, a hono app: POST /rpc (JSON-RPC 2.0, batches too) and GET /health. */
import { Hono } from "hono";
import { handleRpc, serializeRpc, type Method } from "./rpc.ts";

export interface AppDeps {
  /** This build's tag; a client of another build gets 409 and replaces us. */
  tag: string;
  health: () => Record<string, unknown>;
  methods: (name: string) => Method | undefined;
  begin: () => void;
  end: () => void;
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.use(async (_c, next) => {
    deps.begin();
    try {
      await next();
    } finally {
      deps.end();
    }
  });
  app.get("/health", (c) => c.json(deps.health()));
  app.post("/rpc", async (c) => {
    const client = c.req.query("client");
    if (client !== undefined && client !== deps.tag) return c.json(deps.health(), 409);
    const out = await handleRpc(await c.req.text(), deps.methods);
    return out === null ? c.body(null, 204) : c.body(serializeRpc(out), 200, { "content-type": "application/json" });
  });
  app.notFound((c) => c.json({ error: "lore's daemon serves POST /rpc and GET /health" }, 404));
  return app;
}
