/** The platforms a release ships, named the way Bun's --target and our archive names spell them. */

export interface Target {
  os: "linux" | "darwin";
  arch: "x64" | "arm64";
}

export const RELEASE_TARGETS: readonly Target[] = [
  { os: "linux", arch: "x64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "x64" },
  { os: "darwin", arch: "arm64" },
];

export function bunTarget(t: Target): string {
  return `bun-${t.os}-${t.arch}`;
}

/** `lore_0.1.0_linux_x64.tar.gz` — install.sh builds the same name from uname. */
export function archiveName(version: string, t: Target): string {
  return `lore_${version}_${t.os}_${t.arch}.tar.gz`;
}
