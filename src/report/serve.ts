/**
 * The daemon's report listener: 127.0.0.1 only, on a port the system picks, and a random token per
 * report in the URL. A request without a known token gets 403 and nothing else; the listener stops with the daemon.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { runtime } from "../runtime/index.ts";
import type { ReportRequest } from "./build.ts";

/** Tokens kept: the newest reports asked for; an older URL then answers 403. */
const MAX_TOKENS = 64;

export interface ReportServerDeps {
  build: (req: ReportRequest) => Promise<string>;
  begin: () => void;
  end: () => void;
}

export class ReportServer {
  private listening?: Promise<{ port: number; stop: () => Promise<void> }>;
  private readonly tokens = new Map<string, ReportRequest>();

  constructor(private readonly deps: ReportServerDeps) {}

  /** The URL that shows this report (built afresh at each visit). */
  async add(req: ReportRequest): Promise<string> {
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, req);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
    this.listening ??= runtime.serveLoopback((r) => this.fetch(r));
    const { port } = await this.listening;
    return `http://127.0.0.1:${port}/?token=${token}`;
  }

  private find(token: string | null): ReportRequest | undefined {
    if (!token) return undefined;
    const given = Buffer.from(token);
    for (const [known, req] of this.tokens) {
      const k = Buffer.from(known);
      if (k.length === given.length && timingSafeEqual(k, given)) return req;
    }
    return undefined;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const req = this.find(url.searchParams.get("token"));
    if (!req) return new Response("Forbidden\n", { status: 403, headers: { "content-type": "text/plain" } });
    if (request.method !== "GET" && request.method !== "HEAD") return new Response("Only GET\n", { status: 405 });
    if (url.pathname !== "/") return new Response("Not found\n", { status: 404 });
    this.deps.begin();
    try {
      const html = await this.deps.build(req);
      return new Response(html, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff" },
      });
    } catch (err) {
      return new Response(`lore could not make the report: ${err instanceof Error ? err.message : String(err)}\n`, { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
    } finally {
      this.deps.end();
    }
  }

  async stop(): Promise<void> {
    const l = await this.listening?.catch(() => undefined);
    await l?.stop();
  }
}
