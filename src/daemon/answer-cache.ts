/**
 * Answers at HEAD kept until the index moves: on the same index the same question has the
 * same answer, so a repeated warm question costs a map lookup instead of SQL.
 */
import type { AnyQuery } from "../queries/define.ts";

const MAX_ENTRIES = 500;
/** Big answers (contributors of a whole monorepo) are cheap to rebuild compared to the memory they hold. */
const MAX_BYTES = 256 * 1024;

export class AnswerCache {
  private readonly entries = new Map<string, unknown>();
  /** Bumped whenever the index may have changed; an answer computed across a bump is not kept. */
  generation = 0;

  /** The key of a question whose answer depends only on the index: none for `until`/`since` (refs and clocks move on their own) or for status. */
  static keyOf(def: AnyQuery, input: Record<string, unknown>): string | undefined {
    if (def.needsIndex === false || input.until !== undefined || input.since !== undefined) return undefined;
    return `${def.name}\0${JSON.stringify(input)}`;
  }

  get(key: string): unknown {
    return this.entries.get(key);
  }

  set(key: string, generation: number, answer: unknown): void {
    if (generation !== this.generation) return;
    if (JSON.stringify(answer).length > MAX_BYTES) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, answer);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
