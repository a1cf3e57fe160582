/** Progress of `lore index build|export|import` on stderr: a live line on a terminal, one plain line per phase otherwise. */
import { runtime } from "../runtime/index.ts";

const EVERY_MS = 200;

export class PhaseLog {
  private started = Date.now();
  private live = false;
  private lastTick = 0;

  private constructor(private readonly tty: boolean) {}

  static async open(): Promise<PhaseLog> {
    return new PhaseLog(await runtime.isTerminal(2));
  }

  /** A phase begins: its time is counted from now. */
  begin(): void {
    this.started = Date.now();
  }

  /** How far the phase has got (shown on a terminal only, at most five times a second). */
  tick(text: string): void {
    if (!this.tty || Date.now() - this.lastTick < EVERY_MS) return;
    this.lastTick = Date.now();
    this.live = true;
    void runtime.write(2, `\r\x1b[2Klore: ${text}…`);
  }

  /** The phase ended: one line saying what it did and how long it took. */
  async done(text: string): Promise<void> {
    const line = `lore: ${text} (${((Date.now() - this.started) / 1000).toFixed(1)} s)\n`;
    await runtime.write(2, this.live ? `\r\x1b[2K${line}` : line);
    this.live = false;
  }
}
