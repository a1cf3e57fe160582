/** Finding a client's command on the PATH and running it with a deadline: a client that hangs is killed, never waited for. */
import { spawn } from "node:child_process";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** How long a client's command may take: $LORE_CLIENT_TIMEOUT_MS, else `fallback`. */
export function clientTimeout(fallback: number): number {
  const ms = Number(process.env.LORE_CLIENT_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : fallback;
}

export function runTool(command: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    };
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => {
      stderr += err.message;
      finish(-1);
    });
    // 'exit', not 'close': a grandchild that keeps the pipes open must not keep setup waiting.
    child.on("exit", (code) => setTimeout(() => finish(code ?? -1), 50));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        // The whole process group: a wrapper script's children go too.
        if (child.pid) process.kill(process.platform === "win32" ? child.pid : -child.pid, "SIGKILL");
      } catch {}
      finish(-1);
    }, timeoutMs);
  });
}

/** One line of what a failed run said, for a message. */
export function said(r: RunResult, seconds: number): string {
  if (r.timedOut) return `it did not answer within ${seconds} s`;
  const text = (r.stderr || r.stdout).trim().split("\n").filter(Boolean).slice(-1)[0] ?? "";
  return `it exited with ${r.code}${text ? `: ${text}` : ""}`;
}
