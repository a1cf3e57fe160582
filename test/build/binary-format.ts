/** Names the kind of executable a file is from its header: which OS format and which CPU. */

const ELF_MACHINES: Record<number, string> = { 62: "x86-64", 183: "aarch64" };
const MACHO_CPUS: Record<number, string> = { 0x01000007: "x86_64", 0x0100000c: "arm64" };
const MACHO_64_MAGIC = 0xfeedfacf;
const LC_CODE_SIGNATURE = 0x1d;

/** "ELF x86-64", "ELF aarch64", "Mach-O x86_64", "Mach-O arm64", or "unknown". */
export function binaryFormat(head: Uint8Array): string {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  // ELF: \x7fELF, 64-bit little-endian, e_machine at offset 18.
  if (head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    if (head[4] !== 2 || head[5] !== 1) return "unknown";
    return `ELF ${ELF_MACHINES[view.getUint16(18, true)] ?? "unknown"}`;
  }
  // Mach-O 64-bit, little-endian: cputype right after the magic.
  if (view.getUint32(0, true) === MACHO_64_MAGIC) {
    return `Mach-O ${MACHO_CPUS[view.getUint32(4, true)] ?? "unknown"}`;
  }
  return "unknown";
}

/** Apple silicon kills an unsigned binary on sight, so a darwin build must carry a (possibly ad-hoc) signature. */
export function hasCodeSignature(head: Uint8Array): boolean {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(0, true) !== MACHO_64_MAGIC) return false;
  const count = view.getUint32(16, true);
  let offset = 32; // the 64-bit mach_header's size; load commands follow it
  for (let i = 0; i < count && offset + 8 <= head.length; i++) {
    if (view.getUint32(offset, true) === LC_CODE_SIGNATURE) return true;
    offset += view.getUint32(offset + 4, true);
  }
  return false;
}

/** Enough of a file's start to hold an ELF header or every Mach-O load command. */
export async function readHead(path: string): Promise<Uint8Array> {
  const file = Bun.file(path);
  const first = await file.slice(0, 32).bytes();
  const isMachO = new DataView(first.buffer).getUint32(0, true) === MACHO_64_MAGIC;
  const length = isMachO ? 32 + new DataView(first.buffer).getUint32(20, true) : 64;
  return file.slice(0, length).bytes();
}
