/** `npm run build`: the host's binary at dist/lore. */
import { join } from "node:path";
import { ROOT, buildInfo } from "./build-info.ts";
import { compile } from "./bun-compile.ts";

const info = buildInfo();
const outfile = join(ROOT, "dist/lore");
const started = performance.now();
await compile({ outfile, info });
const ms = Math.round(performance.now() - started);
console.error(`built ${outfile} (lore ${info.version}, ${info.commit}) in ${ms} ms`);
