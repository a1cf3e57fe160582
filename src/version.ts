/** The version and commit of this build: baked in by build/compile.ts, read from package.json when run from source. */
import pkg from "../package.json" with { type: "json" };

declare const LORE_BUILD_VERSION: string | undefined;
declare const LORE_BUILD_COMMIT: string | undefined;

export const VERSION: string = typeof LORE_BUILD_VERSION === "string" ? LORE_BUILD_VERSION : pkg.version;
export const COMMIT: string = typeof LORE_BUILD_COMMIT === "string" ? LORE_BUILD_COMMIT : "source";
