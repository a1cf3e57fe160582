#!/usr/bin/env node
// The `lore` command of the npm package: runs the binary of the per-platform package npm installed
// from optionalDependencies (as esbuild and biome ship theirs). Shipped as is by build/npm-packages.ts.
"use strict";
const { spawnSync } = require("node:child_process");
const { dirname, join } = require("node:path");
const pkg = require("../package.json");

const SCOPE = pkg.name.slice(0, pkg.name.lastIndexOf("/") + 1);
const platforms = Object.keys(pkg.optionalDependencies || {}).map((name) => name.slice(SCOPE.length + "lore-".length));
const here = `${process.platform}-${process.arch}`;

function fail(message) {
  process.stderr.write(`lore: ${message}\n`);
  process.exit(1);
}

if (!platforms.includes(here)) {
  fail(`no lore binary for ${process.platform}/${process.arch}: lore ships for ${platforms.map((p) => p.replace("-", "/")).join(", ")}.`);
}
const binaryPackage = `${SCOPE}lore-${here}`;
let binary;
try {
  binary = join(dirname(require.resolve(`${binaryPackage}/package.json`)), "bin", "lore");
} catch {
  fail(`${binaryPackage}, the package with this platform's binary, is not installed (npm installs it from optionalDependencies unless told to omit them); reinstall with: npm install -g ${pkg.name}`);
}
const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (run.error) fail(`could not run ${binary}: ${run.error.message}`);
// Die of the same signal, so a shell sees what the binary's exit was.
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status === null ? 1 : run.status);
