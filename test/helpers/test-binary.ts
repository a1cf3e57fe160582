/**
 * The compiled lore the tests run: built once per source (host target, the release's flags) into a
 * folder shared by every test process, because a binary starts on ~50 ms of CPU where
 * `bun src/main.ts` takes ~120 ms, and the suite starts lore thousands of times.
 */
import { join } from "node:path";
import { buildInfo } from "../../build/build-info.ts";
import { compile } from "../../build/bun-compile.ts";
import { sharedFolder, sourceKey } from "./shared-folder.ts";

const BUILD_TIMEOUT_MS = 300_000;

/**
 * Builds (or finds) the binary and returns its path. It is built from the working tree, not from a
 * commit, so it names itself as a source run does ("source"): the daemon it starts and the one the
 * test process's own code starts are the same build, and neither replaces the other. Nor is it built
 * again after a commit that changed only tests (each build is ~117 MB in the temporary folder).
 */
export async function testBinary(): Promise<string> {
  const base = await sharedFolder("lore-test-bin-", sourceKey({ commit: false }), async (dir) => {
    await compile({ outfile: join(dir, "lore"), info: { ...buildInfo(), commit: "source" } });
  }, BUILD_TIMEOUT_MS);
  return join(base, "lore");
}
