/** One setup at a time: a lock file in $LORE_HOME holding the pid of the setup that runs; a dead holder's lock is taken over. */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { loreHome } from "../home.ts";

export class SetupBusy extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock, or throws SetupBusy naming the setup that holds it. Returns the release. */
export function takeSetupLock(): () => void {
  const dir = loreHome();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, "setup.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let text: string;
      try {
        text = readFileSync(file, "utf8").trim();
      } catch {
        continue; // gone since: try again
      }
      if (text === "") throw new SetupBusy("another lore setup is starting; wait for it to finish, then run this one again");
      const pid = Number(text);
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new SetupBusy(`another lore setup is running (pid ${pid}); wait for it to finish, then run this one again`);
      // Its holder died: the lock is stale.
      rmSync(file, { force: true });
    }
  }
  throw new SetupBusy(`could not take ${file}; remove it if no lore setup is running`);
}
