/** A token bucket per caller: `perMinute` requests a minute, as a burst too; a caller over it is told when to come back. */

export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number, private readonly now = () => Date.now()) {}

  /** 0 when `key` may go ahead (and is counted), else the whole seconds until it may. */
  take(key: string): number {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + ((now - b.at) * this.perMinute) / 60_000);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - b.tokens) * 60_000) / this.perMinute / 1000));
  }
}
