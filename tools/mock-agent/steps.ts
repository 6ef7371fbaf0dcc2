/**
 * The mock agent's prompt grammar: prompt text → steps. One directive per
 * line; a line that does not start with `#` is echoed back. `GRAMMAR` is the
 * text `mock-agent --help` and docs/tools.md show.
 */
import type { JsonObject, SampleVersion } from "./updates.ts";

/** One thing the mock agent does during a turn. */
export type Step =
  | { readonly op: "echo"; readonly text: string }
  | { readonly op: "updates"; readonly kind: string; readonly count: number }
  | { readonly op: "permission" }
  | { readonly op: "read"; readonly path: string }
  | { readonly op: "write"; readonly path: string; readonly text: string }
  | { readonly op: "terminal"; readonly command: string; readonly kill: boolean }
  | { readonly op: "elicit" }
  | { readonly op: "big"; readonly bytes: number }
  | { readonly op: "sleep"; readonly ms: number }
  | { readonly op: "hang" }
  | { readonly op: "error"; readonly code: number; readonly message: string }
  | { readonly op: "unknown-update" }
  | { readonly op: "meta" }
  | { readonly op: "foreign-session" }
  | { readonly op: "die"; readonly code: number }
  | { readonly op: "silent" }
  | { readonly op: "ignore-term" }
  | { readonly op: "linger" }
  | { readonly op: "grandchild" };

/** The operations of the grammar, one per directive (`echo` is plain text). */
export type StepOp = Step["op"];

/** The result of parsing: the steps, or the first error with its line number (1-based). */
export type Parsed = { readonly steps: Step[] } | { readonly error: string; readonly line: number };

/**
 * Largest `#big` message. Default 16 MiB: half the connection's default
 * `maxMessageBytes` (32 MiB), so the line with its envelope always fits.
 */
export const MAX_BIG_BYTES = 16 * 1024 * 1024;

/** Longest `#sleep`. Default 60 s: longer waits are what `#hang` is for. */
export const MAX_SLEEP_MS = 60_000;

/** Most repetitions of one `#updates`. Default 1000: enough to load a client's list, bounded so one line cannot flood it. */
export const MAX_UPDATE_COUNT = 1000;

/** The grammar, as `mock-agent --help` prints it. */
export const GRAMMAR = `Prompt grammar (one directive per line; other lines are echoed back, after a thought
chunk and 200 ms of cancellable thinking):
  #updates KIND [N]       send the sample update(s) of KIND, N times (default 1); KIND is a
                          sessionUpdate kind (agent_message_chunk, tool_call, plan, ...), an
                          alias (message, user, thought, tool, plan, commands, mode, config,
                          usage, info, notice, compaction, state, terminal) or all
  #permission             ask session/request_permission and wait; reports the outcome
  #read PATH              fs/read_text_file (PATH relative to the session cwd); reports the text
  #write PATH TEXT        fs/write_text_file; TEXT may use \\n
  #terminal CMD...        terminal/create, wait_for_exit, output, release; reports output and exit
  #terminal-kill CMD...   terminal/create, kill, wait_for_exit, output, release
  #elicit                 elicitation/create (a one-field form); reports the action
  #big BYTES              one agent_message_chunk of BYTES bytes of text (at most 16 MiB)
  #sleep MS               wait MS milliseconds (at most 60000; cancel ends the turn)
  #hang                   wait until session/cancel; the turn ends cancelled
  #error CODE [MESSAGE]   answer the prompt with the JSON-RPC error CODE
  #unknown-update         a session/update of a kind no schema knows (mock_future_update)
  #meta                   an agent_message_chunk carrying _meta on the update and its content
  #foreign-session        a session/update for a session the client never opened
  #die [CODE]             exit the process now with CODE (default 1), the turn unanswered
  #silent                 send nothing more, ever, and ignore session/cancel
  #ignore-term            from now on ignore SIGTERM (only SIGKILL ends the agent)
  #linger                 from now on keep running after stdin closes
  #grandchild             start a grandchild that ignores SIGTERM and SIGHUP and holds stdout
Steps run in order; a step that needs a client capability the client did not advertise
(fs, terminal, elicitation) fails the whole prompt before any step runs.`;

type Parser = (rest: string) => Step | string;

const intIn = (text: string, min: number, max: number): number | undefined => {
  if (!/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
};

const noArgs =
  (op: "permission" | "elicit" | "hang" | "unknown-update" | "meta" | "foreign-session" | "silent" | "ignore-term" | "linger" | "grandchild"): Parser =>
  (rest) =>
    rest === "" ? { op } : `#${op} takes no arguments`;

const terminal =
  (kill: boolean): Parser =>
  (rest) =>
    rest === "" ? `#terminal${kill ? "-kill" : ""} needs a command` : { op: "terminal", command: rest, kill };

const parsers: Readonly<Record<string, Parser>> = {
  updates(rest) {
    const [kind, count, extra] = rest.split(/\s+/);
    if (kind === undefined || kind === "") return "#updates needs a KIND (or all)";
    if (extra !== undefined) return "#updates takes KIND [N]";
    const n = count === undefined ? 1 : intIn(count, 1, MAX_UPDATE_COUNT);
    return n === undefined ? `#updates N must be an integer from 1 to ${MAX_UPDATE_COUNT}` : { op: "updates", kind, count: n };
  },
  permission: noArgs("permission"),
  read: (rest) => (rest === "" ? "#read needs a PATH" : { op: "read", path: rest }),
  write(rest) {
    const match = /^(\S+)\s+([\s\S]*)$/.exec(rest);
    if (!match) return "#write needs PATH TEXT";
    return { op: "write", path: match[1] ?? "", text: (match[2] ?? "").replace(/\\n/g, "\n") };
  },
  terminal: terminal(false),
  "terminal-kill": terminal(true),
  elicit: noArgs("elicit"),
  big(rest) {
    const bytes = intIn(rest, 1, MAX_BIG_BYTES);
    return bytes === undefined ? `#big BYTES must be an integer from 1 to ${MAX_BIG_BYTES}` : { op: "big", bytes };
  },
  sleep(rest) {
    const ms = intIn(rest, 0, MAX_SLEEP_MS);
    return ms === undefined ? `#sleep MS must be an integer from 0 to ${MAX_SLEEP_MS}` : { op: "sleep", ms };
  },
  hang: noArgs("hang"),
  error(rest) {
    const match = /^(\S+)\s*([\s\S]*)$/.exec(rest);
    const code = match ? intIn(match[1] ?? "", -2147483648, 2147483647) : undefined;
    if (code === undefined) return "#error needs an integer CODE";
    return { op: "error", code, message: match?.[2] || `mock-agent error ${code}` };
  },
  "unknown-update": noArgs("unknown-update"),
  meta: noArgs("meta"),
  "foreign-session": noArgs("foreign-session"),
  die(rest) {
    const code = rest === "" ? 1 : intIn(rest, 0, 255);
    return code === undefined ? "#die CODE must be an integer from 0 to 255" : { op: "die", code };
  },
  silent: noArgs("silent"),
  "ignore-term": noArgs("ignore-term"),
  linger: noArgs("linger"),
  grandchild: noArgs("grandchild"),
};

/** The directive names the grammar knows, without `#`. */
export const DIRECTIVES: readonly string[] = Object.keys(parsers);

/**
 * Parses prompt text into steps. Blank lines are skipped; consecutive plain
 * lines are echoed as one step. An unknown directive or bad argument is an
 * error naming the line, so a typo never silently becomes an echo.
 */
export function parseSteps(text: string): Parsed {
  const steps: Step[] = [];
  const echo: string[] = [];
  const flush = () => {
    if (echo.length > 0) steps.push({ op: "echo", text: echo.splice(0).join("\n") });
  };
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line.startsWith("#")) {
      if (line !== "") echo.push(raw);
      continue;
    }
    flush();
    const match = /^#(\S+)\s*([\s\S]*)$/.exec(line);
    const name = match?.[1] ?? "";
    const parser = Object.hasOwn(parsers, name) ? parsers[name] : undefined;
    if (parser === undefined) return { error: `unknown directive "#${name}" (known: ${DIRECTIVES.map((d) => `#${d}`).join(", ")})`, line: i + 1 };
    const step = parser((match?.[2] ?? "").trim());
    if (typeof step === "string") return { error: step, line: i + 1 };
    steps.push(step);
  }
  flush();
  return { steps };
}

/** What the engine needs from the agent it runs in. */
export interface StepContext {
  /** The protocol version of the connection. */
  readonly version: SampleVersion;
  /** The session of the running turn. */
  readonly sessionId: string;
  /** The session's working directory: relative `#read`/`#write` paths resolve against it. */
  readonly cwd: string;
  /** Aborted on `session/cancel` (or close); the turn then ends `cancelled`. */
  readonly signal: AbortSignal;
  /** The capabilities the client advertised in `initialize`. */
  readonly clientCapabilities: unknown;
  /** The `messageId` of the agent's reply in this turn (v2 requires one on every chunk; v1 omits it). */
  readonly messageId: string;
  /** Sends `session/update` with `update`, for `sessionId` (default: the turn's session). */
  sendUpdate(update: JsonObject, sessionId?: string): Promise<void>;
  /** Sends a request to the client by wire name; settles with its result or rejects with its error. */
  request(wire: string, params: JsonObject): Promise<unknown>;
  /** A diagnostic for the agent's stderr. */
  log(message: string): void;
}

/** How a turn ended: a stop reason, or a JSON-RPC error to answer the prompt with. */
export type TurnEnd = { readonly stopReason: "end_turn" | "cancelled" } | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };
