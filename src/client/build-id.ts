/** Which build this process is: a client replaces a daemon whose build differs from its own. */
import { COMMIT, VERSION } from "../version.ts";

export interface BuildId {
  version: string;
  commit: string;
}

/** LORE_VERSION_OVERRIDE lets tests (and people trying a fix) pose as another version without a second build. */
export function buildId(): BuildId {
  return { version: process.env.LORE_VERSION_OVERRIDE || VERSION, commit: COMMIT };
}

/** The form sent with every call and compared by the daemon. */
export function buildTag(id: BuildId = buildId()): string {
  return `${id.version}+${id.commit}`;
}

/** Whether a daemon that reported `other` is this very build. */
export function sameBuild(other: BuildId): boolean {
  const me = buildId();
  return other.version === me.version && other.commit === me.commit;
}
