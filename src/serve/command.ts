/** `lore serve`: one lore for a team, over Streamable HTTP MCP; and `lore serve token add|list|remove` for its bearer tokens. */
import { join } from "node:path";
import { parseCommandArgv } from "../cli/argv.ts";
import { LoreError } from "../errors.ts";
import { loreHome } from "../home.ts";
import { runtime } from "../runtime/index.ts";
import { serveOptions } from "./options.ts";
import { TokenFile } from "./tokens.ts";

const HELP = `lore serve — answer a team's agents over HTTP (Streamable HTTP MCP at /mcp, GET /healthz)

Usage:
  lore serve --listen HOST:PORT --repo [NAME=]DIR|URL [--repo …] [flags]
  lore serve --config FILE            the same settings in a TOML file (keys are the flags' names,
                                      [[repo]] tables with name, source, branch, index)
  lore serve token add NAME           make a token: printed once, only its hash is kept
  lore serve token list               the tokens' names and when each was made
  lore serve token remove NAME        revoke one (a running server sees it at once)

It answers about committed history only, in clones of its own under --data, fetched every
--fetch-every; a tool's repo names a served repository (its NAME: the folder's name unless
given), and may be left out when one is served. Work-tree questions (changes, restore,
review of uncommitted work) need the local lore mcp.

Flags:
  --listen HOST:PORT        where to listen (default 127.0.0.1:7077); beyond loopback only with tokens
  --repo [NAME=]SOURCE      a repository to serve (a folder or a git URL), repeatable
  --data DIR                where its clones live (default $LORE_HOME/serve)
  --fetch-every TIME        how often to fetch each source (default 60s)
  --tokens FILE             the token file (default DATA/tokens)
  --secret-file FILE        the secret continue tokens are sealed with, shared by replicas (or LORE_SECRET)
  --log FILE                the request log (one JSON line each; default stderr)
  --allow-host NAME         a host name clients reach it by (proxies, DNS names), repeatable
  --allow-origin ORIGIN     a browser origin it answers, repeatable (others get 403)
  --rate N                  requests per minute per token (default 120)
  --client-timeout TIME     how long a client may take to send a request (default 10s)`;

async function tokenCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgv(argv, { tokens: { type: "string" }, data: { type: "string" }, json: { type: "boolean" } }, "serve", true);
  const [action, name, ...extra] = parsed.positionals;
  const data = typeof parsed.values.data === "string" ? parsed.values.data : join(loreHome(), "serve");
  const file = new TokenFile(typeof parsed.values.tokens === "string" ? parsed.values.tokens : join(data, "tokens"));
  const wants = action === "list" ? 0 : 1;
  if (!["add", "list", "remove"].includes(action ?? "")) throw new LoreError("USAGE", `lore serve token takes add NAME, list or remove NAME${action ? `, not "${action}"` : ""}.`);
  if ((name === undefined ? 0 : 1 + extra.length) !== wants) throw new LoreError("USAGE", action === "list" ? "lore serve token list takes no arguments." : `lore serve token ${action} takes one NAME.`);
  if (action === "add") {
    const token = file.add(name!);
    await runtime.write(1, parsed.values.json ? JSON.stringify({ name, token }) + "\n" : `${token}\n`);
    await runtime.write(2, `lore: token "${name}" added to ${file.path}; it is shown this once (only its hash is kept).\n`);
  } else if (action === "remove") {
    file.remove(name!);
    await runtime.write(2, `lore: token "${name}" removed.\n`);
  } else {
    const list = file.list().map((e) => ({ name: e.name, created: e.created }));
    await runtime.write(1, parsed.values.json ? JSON.stringify(list) + "\n" : list.map((e) => `${e.name}\t${e.created}\n`).join(""));
  }
  return 0;
}

export async function serveCommand(argv: string[]): Promise<number> {
  if (argv[0] === "token") return tokenCommand(argv.slice(1));
  if (argv.includes("--help") || argv.includes("-h")) {
    await runtime.write(1, HELP + "\n");
    return 0;
  }
  const opts = serveOptions(argv);
  const { runServe } = await import("./run.ts");
  const code = await runServe(opts);
  // Git processes of abandoned work must not keep a stopped server alive.
  process.exit(code);
}
