/** Where lore keeps its state: $LORE_HOME (default ~/.lore). */
import { homedir } from "node:os";
import { join } from "node:path";

export function loreHome(): string {
  return process.env.LORE_HOME || join(homedir(), ".lore");
}
