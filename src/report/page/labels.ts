/** Names files apart by the shortest end of their paths that no other file in the picture shares: six package.json files become vite/package.json, create-vite/package.json, … (the root one stays package.json). */

export function shortLabels(paths: readonly string[]): Map<string, string> {
  const parts = new Map(paths.map((p) => [p, p.split("/")]));
  // How many of each path's last folders its label shows (0: the file name alone).
  const depth = new Map(paths.map((p) => [p, 0]));
  const label = (p: string) => {
    const ps = parts.get(p)!;
    return ps.slice(Math.max(0, ps.length - 1 - depth.get(p)!)).join("/");
  };
  for (let grew = true; grew; ) {
    grew = false;
    const byLabel = new Map<string, string[]>();
    for (const p of paths) byLabel.set(label(p), [...(byLabel.get(label(p)) ?? []), p]);
    for (const same of byLabel.values()) {
      if (same.length < 2) continue;
      // Each one that has a folder left shows one more; one that has none (the root's) is told apart by the others' growing.
      for (const p of same)
        if (depth.get(p)! < parts.get(p)!.length - 1) {
          depth.set(p, depth.get(p)! + 1);
          grew = true;
        }
    }
  }
  return new Map(paths.map((p) => [p, label(p)]));
}
