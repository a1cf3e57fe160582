/** The two repositories the search tests ask: the story repository and a generated 400-commit history (seed 12). */
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { tempDir, type TestRepo } from "./git-repo.ts";
import { buildStoryRepo } from "./story-repo.ts";

/** Builds both; about a second, so each search test file builds its own. */
export async function buildSearchRepos(): Promise<{ story: TestRepo; gen: string }> {
  const story = buildStoryRepo();
  const gen = join(tempDir(), "generated");
  await generateRepo({ dir: gen, commits: 400, files: 80, seed: 12 });
  return { story, gen };
}
