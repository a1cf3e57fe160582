/**
 * Answers at HEAD kept until the index moves: on the same index the same question has the
 * same answer, so a repeated warm question costs a map lookup instead of SQL. Answers are
 * kept as the JSON text the reply carries (never parsed again), so the budget is the memory
 * they take (as objects they took several times more: a soak saw the daemon grow 70% before).
 */
import type { AnyQuery } from "../queries/define.ts";
import { diskStamp } from "../queries/disk-stamp.ts";

const DISK_MARK = "disk:";

/** What one repository's cache may hold, counted as JSON text: memory stays flat however many questions come. */
const BUDGET_BYTES = 8 * 1024 * 1024;
/** Big answers (contributors of a whole monorepo) are cheap to rebuild compared to the memory they hold. */
const MAX_BYTES = 256 * 1024;

export class AnswerCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;
  /** Bumped whenever the index may have changed; an answer computed across a bump is not kept. */
  generation = 0;

  /**
   * The key of a question whose answer depends only on the index: none for `until`/`since`
   * (refs and clocks move on their own), for `changed` or a question not cacheable (the work
   * tree moves without a commit: review) or for status.
   */
  static keyOf(def: AnyQuery, input: Record<string, unknown>): string | undefined {
    if (def.needsIndex === false || def.cacheable === false || input.until !== undefined || input.since !== undefined || input.changed === true) return undefined;
    // About the file on disk: kept only while the file keeps its stamp (an edit is a new key), and only when clean (see set).
    const disk = def.readsDisk?.(input) ? `\0${DISK_MARK}${diskStamp(input)}` : "";
    return `${def.name}\0${JSON.stringify(input)}${disk}`;
  }

  /** The answer's JSON text. */
  get(key: string): string | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // Most recently used last: eviction takes the oldest first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, generation: number, text: string): void {
    if (generation !== this.generation || this.entries.has(key)) return;
    // A file that differs from HEAD's is answered from what the staging area and the file say: never kept.
    if (key.includes(DISK_MARK) && text.includes('"worktree":true')) return;
    if (text.length > MAX_BYTES) return;
    while (this.bytes + text.length > BUDGET_BYTES && this.entries.size > 0) {
      const [oldest, old] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= old.length;
    }
    this.entries.set(key, text);
    this.bytes += text.length;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }
}
