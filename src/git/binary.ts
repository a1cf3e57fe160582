/** git's own test for a binary file: a NUL byte in its first 8,000 bytes. */

export const BINARY_PROBE_BYTES = 8000;

export function looksBinary(start: Uint8Array): boolean {
  return start.subarray(0, BINARY_PROBE_BYTES).includes(0);
}
