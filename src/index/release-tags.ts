/** Which tags are releases (v1.2.3, 1.2.3, name@1.2.3, with an optional pre-release) and their version order. Pure. */

export interface ReleaseName {
  tag: string;
  /** The name before `@` in a monorepo's name@1.2.3; '' for the repository's own releases. */
  family: string;
  numbers: number[];
  /** A pre-release's identifiers (`rc.1`), empty for a release. */
  pre: string[];
}

const RELEASE = /^(?:(.+)@)?v?(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** The release a tag names, or undefined when the tag is not one (a branch-like name, `vv3.5.0`). */
export function releaseName(tag: string): ReleaseName | undefined {
  const m = RELEASE.exec(tag);
  if (!m) return undefined;
  const family = m[1] ?? "";
  // A family is a package name (`@scope/name`, `name`), never a version or something with spaces.
  if (family && !/^(?:@[\w.-]+\/)?[\w.-]+$/.test(family)) return undefined;
  return { tag, family, numbers: [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)], pre: m[5] ? m[5].split(".") : [] };
}

function comparePre(a: string[], b: string[]): number {
  // A release comes after its pre-releases (semver precedence).
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (!nx && x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Version order (semver precedence); ties (v1.2.3 beside 1.2.3) by tag name, so the order is total. */
export function compareReleases(a: ReleaseName, b: ReleaseName): number {
  for (let i = 0; i < 3; i++) if (a.numbers[i] !== b.numbers[i]) return a.numbers[i]! - b.numbers[i]!;
  return comparePre(a.pre, b.pre) || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
}
