/**
 * The interactive side of the example client: prompts typed at the
 * terminal, permission questions answered by the person there. Ctrl-C
 * cancels the running turn (`session/cancel`); at the prompt it quits, as
 * do `/quit` and end of input. `/mode <id>` switches the session's mode.
 */
import { createInterface } from "node:readline";
import type { RequestPermissionOutcome, RequestPermissionRequest } from "../src/index.ts";
import type { ClientSession } from "./client-session.ts";
import type { Transcript } from "./transcript.ts";

export interface TerminalUser {
  /** The permission policy: asks the person at the terminal. */
  permission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionOutcome>;
  /** Reads and sends prompts until `/quit`, Ctrl-C at the prompt, or end of input. */
  run(session: ClientSession): Promise<void>;
  close(): void;
}

export function createTerminalUser(transcript: Transcript, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): TerminalUser {
  const tty = (input as { isTTY?: boolean }).isTTY === true;
  const rl = createInterface({ input, output, terminal: tty });
  // Lines typed while the agent works are kept, in order, for the next question.
  const lines: string[] = [];
  let waiter: ((line: string | undefined) => void) | undefined;
  let closed = false;
  let turn: AbortController | undefined;

  rl.on("line", (line) => {
    if (waiter) {
      const resolve = waiter;
      waiter = undefined;
      resolve(line);
    } else lines.push(line);
  });
  rl.on("close", () => {
    closed = true;
    waiter?.(undefined);
    waiter = undefined;
  });
  rl.on("SIGINT", () => {
    if (turn && !turn.signal.aborted) turn.abort();
    else rl.close();
  });

  /** The next line typed after showing `query`; undefined at end of input or when `signal` aborts. */
  const nextLine = (query: string, signal?: AbortSignal): Promise<string | undefined> => {
    if (lines.length > 0) return Promise.resolve(lines.shift());
    if (closed || signal?.aborted) return Promise.resolve(undefined);
    rl.setPrompt(query);
    rl.prompt();
    return new Promise((resolve) => {
      const onAbort = () => {
        waiter = undefined;
        output.write("\n");
        resolve(undefined);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiter = (line) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(line);
      };
    });
  };

  return {
    async permission(request, signal) {
      transcript.question(request);
      const menu = request.options.map((o, i) => `${i + 1}) ${o.name}`).join("  ");
      for (;;) {
        const answer = (await nextLine(`  ${menu}  (number, empty to cancel): `, signal))?.trim();
        if (answer === undefined || answer === "") return { outcome: "cancelled" };
        const option = request.options[Number(answer) - 1] ?? request.options.find((o) => o.optionId === answer);
        if (option) return { outcome: "selected", optionId: option.optionId };
      }
    },

    async run(session) {
      transcript.note("Type a prompt (try: hello, plan, slow, read <absolute path>), /mode <id>, or /quit. Ctrl-C cancels a running turn.");
      for (;;) {
        const line = await nextLine("> ");
        if (line === undefined || line.trim() === "/quit") return;
        const text = line.trim();
        if (text === "") continue;
        if (text.startsWith("/mode ")) {
          await session.setMode(text.slice(6).trim()).catch((error: unknown) => transcript.note(`  mode not changed: ${error instanceof Error ? error.message : String(error)}`));
          continue;
        }
        turn = new AbortController();
        try {
          await session.prompt(text, { cancelSignal: turn.signal, echo: !tty });
        } finally {
          turn = undefined;
        }
      }
    },

    close: () => rl.close(),
  };
}
