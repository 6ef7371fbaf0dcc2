/**
 * What the capabilities run of `check` sends and keeps: the exercise
 * prompts, the files they name, the rows the run decides, and what check's
 * client saw in one run. The run (probes-capabilities.ts) fills it; the
 * judgement (judge-capabilities.ts) reads it.
 */
import type { AgentLine } from "./driver.ts";

/**
 * The prompts both runs send, one turn each: plain requests an example or
 * model-backed agent may act on, and the mock agent's directives (one per
 * line; three permissions in one turn: allowed, rejected, cancelled). `FILE`
 * becomes an absolute path in the session cwd (check's client answers reads
 * of it with fixed text; nothing is read or written on disk).
 */
/** The file the plain-words prompts name by absolute path; the `#` directives name RELATIVE_FILE, relative to the session cwd. */
export const ABSOLUTE_FILE = "acp-router-check-absolute.txt";
export const RELATIVE_FILE = "acp-router-check.txt";

export const EXERCISES = [
  "plan the steps to say hello",
  "read FILE",
  "read FILE",
  "read FILE",
  "#updates plan\n#updates tool\n#read acp-router-check.txt\n#write acp-router-check.txt checked\n#terminal echo checked\n#terminal-kill sleep 5\n#elicit\n#updates all",
  "#permission\n#permission\n#permission",
];

/** The rows the capabilities run decides. */
export const CAPS_ROWS = [
  "ACP-SESSION-104",
  "ACP-SESSION-105",
  "ACP-INIT-003",
  "ACP-INIT-106",
  "ACP-TOOL-101",
  "ACP-TOOL-102",
  "ACP-PLAN-101",
  "ACP-PLAN-102",
  "ACP-PLAN-103",
  "ACP-PATH-101",
  "ACP-PATH-102",
  "ACP-TERM-102",
  "ACP-TERM-104",
  "ACP-TERM-105",
  "ACP-SESSION-107",
  "ACP-ELICIT-116",
  "ACP-ELICIT-117",
  "ACP-ELICIT-119",
  "ACP-ELICIT-122",
  "ACP-ELICIT-123",
];

/** What check's client did and saw in one run, for the judgements at the end. */
export interface Seen {
  readonly lines: AgentLine[];
  /** Exercise prompts answered with a result / with an error. */
  results: number;
  errors: number;
  /** Turns cancelled mid-permission and how they ended. */
  readonly cancelledMidPermission: string[];
  /** Permission requests answered "allow", with their tool call id. */
  readonly allowed: { toolCallId: string; at: number; sessionId: string }[];
  /** Terminal ids check's client handed out. */
  readonly terminals: string[];
  /** Elicitations declined, and whether their turn was then answered. */
  readonly declined: number[];
}

export const newSeen = (): Seen => ({ lines: [], results: 0, errors: 0, cancelledMidPermission: [], allowed: [], terminals: [], declined: [] });
