/** A request's body read within a size and a time: past 1 MB it is 413 before more is read, and a client too slow to send it is cut off (408). */

export const MAX_BODY_BYTES = 1024 * 1024;

export type Body = { text: string } | { status: 408 | 413 };

export async function readBody(req: Request, maxBytes: number, timeoutMs: number): Promise<Body> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) return { status: 413 };
  if (!req.body) return { text: "" };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") return { status: 408 };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) return { status: 413 };
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}
