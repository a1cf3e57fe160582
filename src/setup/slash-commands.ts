/** The slash commands lore's plugins give a person (/lore:review, /lore:why): the two questions asked most, each one tool call. */

export interface SlashCommand {
  name: string;
  /** What the host lists beside the command. */
  description: string;
  argumentHint: string;
  /** What the agent is told; $ARGUMENTS is what the person typed after the command. */
  prompt: string;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: "review",
    description: "Before you commit: the fixes your change undoes, files it may have missed, whom to ask (lore_review)",
    argumentHint: "[base branch]",
    prompt: `Call the lore MCP tool lore_review on this repository: with no arguments it reviews the uncommitted change; if these arguments name a branch, pass it as base: $ARGUMENTS
Then tell me, briefly: which fix commits my change rewrites (quote what their messages warn about), which files usually change with these but were not touched, and whom to ask. Say plainly when there is nothing to worry about.`,
  },
  {
    name: "why",
    description: "Why these lines exist: the full messages of the commits that wrote them (lore_intent)",
    argumentHint: "FILE:START-END",
    prompt: `Call the lore MCP tool lore_intent for these lines (FILE:START-END; a single line is START-START): $ARGUMENTS
Then explain why the code is the way it is, from the commit messages it returns, citing each commit's short id; add what else each commit touched only where it explains the lines.`,
  },
];
