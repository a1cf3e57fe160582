/**
 * Preloaded by `bun test` (bunfig.toml) before each test file: puts the compiled test binary's path in
 * LORE_TEST_BIN for loreArgv(), which must be synchronous; LORE_TEST_SOURCE=1 runs lore from source.
 */
import { testBinary } from "./test-binary.ts";

if (process.env.LORE_TEST_SOURCE !== "1" && !process.env.LORE_TEST_BIN) process.env.LORE_TEST_BIN = await testBinary();
