/** The coding agents lore knows, and how a commit's author, message or note names one: the one table of them. */

export interface KnownAgent {
  /** The short name answers carry. */
  name: string;
  /** An identity (`Name <email>` as a trailer or the author gives it) that is this agent. */
  identity: RegExp;
  /** A line of the message that says the agent made the commit. */
  line?: RegExp;
  /** What a provenance tool's note or an `Entire-Agent:` trailer calls it. */
  tool: RegExp;
}

/** Order matters only where two could match one identity (none do today). */
export const KNOWN_AGENTS: readonly KnownAgent[] = [
  {
    name: "claude",
    identity: /<noreply@anthropic\.com>$|^claude(?: code| opus| sonnet| haiku)?\b[^<]*<[^<>]*(?:anthropic|claude)[^<>]*>$/i,
    line: /generated with \[?claude code\]?/i,
    tool: /^claude(?:[ _-]?code)?$/i,
  },
  {
    name: "copilot",
    identity: /^copilot(?:-swe-agent(?:\[bot\])?)? <|copilot-swe-agent\[bot\]@users\.noreply\.github\.com>$|\+copilot@users\.noreply\.github\.com>$/i,
    tool: /^(?:github[ _-]?)?copilot(?:[ _-]?agent)?$/i,
  },
  {
    name: "codex",
    identity: /^(?:openai )?codex\b[^<]*<|chatgpt-codex-connector\[bot\]@users\.noreply\.github\.com>$|<codex@openai\.com>$/i,
    line: /generated with \[?(?:openai )?codex\b/i,
    tool: /^(?:openai[ _-]?)?codex(?:[ _-]?cli)?$/i,
  },
  {
    name: "cursor",
    identity: /<cursoragent@cursor\.com>$|^cursor ?agent </i,
    line: /generated with \[?cursor\b/i,
    tool: /^cursor(?:[ _-]?agent)?$/i,
  },
  {
    name: "devin",
    identity: /devin-ai-integration\[bot\]|^devin(?: ai)? </i,
    tool: /^devin$/i,
  },
  {
    name: "aider",
    identity: /<noreply@aider\.chat>$|\(aider\) </i,
    tool: /^aider$/i,
  },
  {
    name: "gemini",
    identity: /gemini-code-assist\[bot\]|^gemini(?: cli| code assist)? </i,
    line: /generated with \[?gemini(?: cli)?\b/i,
    tool: /^gemini(?:[ _-]?cli)?$/i,
  },
  {
    name: "jules",
    identity: /google-labs-jules\[bot\]/i,
    tool: /^jules$/i,
  },
];

export interface AgentCredit {
  agent: string;
  /** What said so: the trailer or line as written, the author, or the note's ref. */
  signal: string;
}

const CO_AUTHOR = /^[ \t]*co-authored-by:[ \t]*(.*?)[ \t]*(<[^<>\n]*>)[ \t]*$/gim;
const ENTIRE_AGENT = /^[ \t]*entire-agent:[ \t]*(.+?)[ \t]*$/im;
const ENTIRE_CHECKPOINT = /^[ \t]*entire-checkpoint:[ \t]*\S.*$/im;

function byIdentity(ident: string): KnownAgent | undefined {
  return KNOWN_AGENTS.find((a) => a.identity.test(ident));
}

/** Whether an identity (a commit's author or a trailer's) is a coding agent's: an agent is never a person to credit or ask. */
export function isAgentIdentity(name: string, email: string): boolean {
  return byIdentity(`${name} <${email}>`) !== undefined;
}

/** The agent a tool's own name for it (a note's `tool`, an `Entire-Agent:` value) means. */
export function agentByTool(tool: string): string | undefined {
  const t = tool.trim();
  return KNOWN_AGENTS.find((a) => a.tool.test(t))?.name;
}

/**
 * The agent a commit credits, from its author and message: the author itself (a bot account), a
 * `Co-authored-by:` trailer, a "Generated with" line, or Entire's trailers. Pure.
 */
export function agentOfCommit(author: string, email: string, message: string): AgentCredit | undefined {
  const self = `${author} <${email}>`;
  const own = byIdentity(self);
  if (own) return { agent: own.name, signal: `author ${self}` };
  for (const m of message.matchAll(CO_AUTHOR)) {
    const ident = `${m[1]} ${m[2]}`.trim();
    const a = byIdentity(ident);
    if (a) return { agent: a.name, signal: m[0].trim() };
  }
  for (const a of KNOWN_AGENTS) {
    const line = a.line && message.split("\n").find((l) => a.line!.test(l));
    if (line) return { agent: a.name, signal: line.trim() };
  }
  const entire = ENTIRE_AGENT.exec(message);
  if (entire) return { agent: agentByTool(entire[1]!) ?? "entire", signal: entire[0].trim() };
  const checkpoint = ENTIRE_CHECKPOINT.exec(message);
  if (checkpoint) return { agent: "entire", signal: checkpoint[0].trim() };
  return undefined;
}

/** The field names a provenance note names its tool with (git-ai's agent_id.tool, Agent Trace's tool.name, origin's agent). */
const NOTE_TOOL = /"(?:tool|agent|agent_name|tool_name)"\s*:\s*(?:\{\s*"name"\s*:\s*)?"([^"\n]{1,60})"|^[ \t]*(?:tool|agent):[ \t]*([^\n]{1,60})$/gim;

/** The agent a provenance tool's note names, if it names one lore knows. Pure. */
export function agentOfNote(note: string): string | undefined {
  for (const m of note.matchAll(NOTE_TOOL)) {
    const name = agentByTool(m[1] ?? m[2] ?? "");
    if (name) return name;
  }
  const credit = agentOfCommit("", "", note);
  return credit?.agent === "entire" ? undefined : credit?.agent;
}
