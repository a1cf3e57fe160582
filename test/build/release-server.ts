/** Serves a release folder over loopback HTTP, honestly or with the faults a real download can have. */
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * The first path segment picks how archives are served (checksums.txt is always honest):
 * `ok` as they are, `tampered` with one byte changed, `cut` announcing the full length
 * but closing the connection halfway, `half` as a complete-looking response of half the bytes.
 */
export type Fault = "ok" | "tampered" | "cut" | "half";

export interface ReleaseServer {
  url(fault: Fault): string;
  close(): Promise<void>;
}

export async function serveRelease(dir: string): Promise<ReleaseServer> {
  const server: Server = createServer((req, res) => {
    const [, fault, name = ""] = (req.url ?? "").split("/");
    let body: Buffer;
    try {
      body = readFileSync(join(dir, basename(name)));
    } catch {
      res.writeHead(404).end("not found\n");
      return;
    }
    const isArchive = name.endsWith(".tar.gz");
    if (isArchive && fault === "tampered") {
      body = Buffer.from(body);
      body[body.length >> 1] ^= 0xff;
    }
    if (isArchive && fault === "half") body = body.subarray(0, body.length >> 1);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
    if (isArchive && fault === "cut") {
      res.write(body.subarray(0, body.length >> 1), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (fault) => `http://127.0.0.1:${port}/${fault}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
