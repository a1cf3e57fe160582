/** One line of what setup (or doctor) did or found, with how it went. */

export type StepStatus = "changed" | "unchanged" | "ok" | "warn" | "fail";

export interface Step {
  status: StepStatus;
  message: string;
}

/** One finding of lore doctor, with the command that fixes it. */
export interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  message: string;
  fix?: string;
}

const MARK: Record<StepStatus, string> = { changed: "+", unchanged: "=", ok: "✓", warn: "!", fail: "✗" };

export function formatStep(step: Step): string {
  return `${MARK[step.status]} ${step.message}`;
}
