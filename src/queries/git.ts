/** git: a read-only git command, for what no question covers. */
import { defineQuery, type Args } from "./define.ts";

export interface GitOutput {
  repo: string;
  args: string[];
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

export const GIT_ARGS = {
  args: {
    type: "strings",
    required: true,
    positional: true,
    text: true,
    checkedByRunner: true,
    description: 'After "git": ["log","-n","3"].',
  },
} as const satisfies Args;

export const gitQuery = defineQuery({
  name: "git",
  summary: "A read-only git command, for what no question covers",
  description:
    "Read-only git where no tool answers: log show diff blame grep status ls-files ls-tree cat-file rev-parse rev-list describe merge-base name-rev for-each-ref shortlog branch tag.",
  args: GIT_ARGS,
  common: ["repo"],
  needsIndex: false,
  // What git prints of the work tree moves without a commit: its pages are bound to the whole output.
  cacheable: false,
  continues: true,
  output: (z) =>
    z.object({
      repo: z.string(),
      args: z.array(z.string()),
      exitCode: z.number().int(),
      stdout: z.string(),
      stderr: z.string(),
      truncated: z.boolean(),
    }),
  load: () => import("./run/git.ts"),
});
