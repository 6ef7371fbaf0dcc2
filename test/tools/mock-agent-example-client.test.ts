/**
 * `acp-router mock-agent` driven by our example client (`examples/client.ts`,
 * in-process through `runClient`) through every element of the grammar,
 * over stdio and over `--listen` (Streamable HTTP and WebSocket). Per
 * transport: one run of every element that ends its turn, one run of those
 * that end it otherwise (`#permission` answered cancelled, `#hang` cancelled,
 * then `#error`), one run of a
 * step the client cannot serve (it advertises no elicitation).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClient, type RunClientOptions } from "../../examples/client.ts";
import { listeningMockAgent, mockAgent, mockCwd, NOTES, segments } from "./mock-agent-support.ts";

interface Element {
  readonly prompt: string;
  /** Checks the transcript after the prompt (and the cwd, for #write). */
  readonly check: (shown: string, cwd: string) => void;
}

const ended = (shown: string) => expect(shown).toContain("[stop: end_turn]");

/** Every element whose turn ends normally, in the order the client sends them. */
const elements: readonly Element[] = [
  { prompt: "hello mock", check: (s) => (expect(s).toContain("(thinking) [mock] echoing\nhello mock\n"), ended(s)) },
  {
    prompt: "#updates all",
    check(s) {
      for (const line of [
        "tool mock-tool-read: Mock read tool (read, pending)",
        "tool mock-tool-read: Mock read tool -> failed",
        "plan: [x] Read the file",
        "commands: /explain /search",
        "mode is now code",
        "config: Model=mock-large",
        "session title: Mock session",
        "usage: 1200 of 200000 tokens",
        "(thinking) Thinking about the request.",
        "> A replayed user line.",
      ])
        expect(s).toContain(line);
      // The example client advertises neither session.notices nor session.compaction: v1 forbids sending those.
      expect(s).toContain("[mock] skipped notice (needs session.notices), compaction_update (needs session.compaction)");
      ended(s);
    },
  },
  { prompt: "#updates message 3", check: (s) => (expect(s.split("Hello from the mock agent.").length - 1).toBe(3), ended(s)) },
  { prompt: "#updates tool", check: (s) => (expect(s.match(/tool mock-tool-\w+: Mock \w+ tool \(\w+, \w+\)/g)).toHaveLength(10), ended(s)) },
  { prompt: "#permission", check: (s) => (expect(s).toContain("-> allow (policy allow)"), expect(s).toContain("[mock] permission: selected allow"), ended(s)) },
  { prompt: "#read notes.txt", check: (s, cwd) => (expect(s).toContain(`[mock] read ${join(cwd, "notes.txt")}: ${JSON.stringify(NOTES)}`), ended(s)) },
  {
    prompt: "#write out.txt first\\nsecond",
    check(s, cwd) {
      expect(s).toContain(`[mock] wrote 12 bytes to ${join(cwd, "out.txt")}`);
      expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("first\nsecond");
      ended(s);
    },
  },
  { prompt: "#terminal echo mock-terminal", check: (s) => (expect(s).toContain('[mock] terminal: exit {"exitCode":0,"signal":null}, output "mock-terminal\\n"'), ended(s)) },
  { prompt: "#terminal-kill sleep 30", check: (s) => (expect(s).toMatch(/\[mock\] terminal \(killed\): exit \{"exitCode":(null|[1-9]\d*),/), ended(s)) },
  {
    prompt: "#big 100000",
    check(s) {
      const big = s.slice(0, s.indexOf("[mock] sent a message of 100000 bytes"));
      expect(big.length).toBe(100_000);
      ended(s);
    },
  },
  { prompt: "#sleep 20", check: ended },
  // The client drops it (the v1 schema is closed) and goes on: the next prompts still run.
  { prompt: "#unknown-update", check: ended },
  { prompt: "#meta", check: (s) => (expect(s).toContain("A chunk with _meta."), ended(s)) },
  { prompt: "#foreign-session", check: (s) => (expect(s).toContain("An update for a session you never opened."), ended(s)) },
];

type Transport = "stdio" | "http" | "websocket";

interface Runs {
  readonly cwd: string;
  readonly main: { readonly transcript: string; readonly stopReasons: readonly string[] };
  readonly ending: { readonly transcript: string; readonly error: unknown };
  readonly refused: { readonly error: unknown };
}

async function drive(base: RunClientOptions, cwd: string): Promise<Runs> {
  let transcript = "";
  const main = await runClient({ ...base, cwd, prompts: elements.map((e) => e.prompt), output: { write: (t: string) => (transcript += t) } });
  let endingText = "";
  const endingError = await runClient({ ...base, cwd, cancelAfterMs: 300, permission: "cancel", prompts: ["#permission", "#hang", "#error -32042 mock failure"], output: { write: (t: string) => (endingText += t) } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  const refusedError = await runClient({ ...base, cwd, prompts: ["#elicit"], output: { write: () => {} } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { cwd, main: { transcript, stopReasons: main.stopReasons }, ending: { transcript: endingText, error: endingError }, refused: { error: refusedError } };
}

describe.each(["stdio", "http", "websocket"] as const)("mock-agent driven by the example client over %s", (transport: Transport) => {
  let runs: Runs;
  let stop: (() => Promise<number | null>) | undefined;

  beforeAll(async () => {
    const cwd = mockCwd();
    if (transport === "stdio") {
      runs = await drive({ agentCommand: mockAgent(), protocol: 1, agentStderr: "capture" }, cwd);
      return;
    }
    const server = await listeningMockAgent();
    stop = server.stop;
    const url = transport === "http" ? server.url : server.url.replace(/^http/, "ws");
    runs = await drive({ url, protocol: 1 }, cwd);
  }, 60_000);
  afterAll(async () => {
    if (stop) expect(await stop()).toBe(0);
  });

  it("ends every normal turn end_turn", () => {
    expect(runs.main.stopReasons).toEqual(elements.map(() => "end_turn"));
  });

  it.each(elements.map((e) => [e.prompt, e] as const))("%s", (prompt, element) => {
    const shown = segments(
      runs.main.transcript,
      elements.map((e) => e.prompt),
    ).get(prompt);
    expect(shown, `no transcript for ${prompt}`).toBeDefined();
    element.check(shown ?? "", runs.cwd);
  });

  it("#permission answered cancelled: the tool call fails and the turn ends cancelled", () => {
    const shown = segments(runs.ending.transcript, ["#permission", "#hang"]).get("#permission") ?? "";
    expect(shown).toContain("-> cancelled (policy cancel)");
    expect(shown).toContain("Mock edit needing permission -> failed");
    expect(shown).toContain("[mock] permission: cancelled");
    expect(shown).toContain("[stop: cancelled]");
  });

  it("#hang waits until session/cancel and ends the turn cancelled", () => {
    const shown = segments(runs.ending.transcript, ["#permission", "#hang", "#error -32042 mock failure"]).get("#hang") ?? "";
    expect(shown).toContain("[mock] hanging until session/cancel");
    expect(shown).toContain("sending session/cancel");
    expect(shown).toContain("[stop: cancelled]");
  });

  it("#error CODE MESSAGE answers the prompt with that JSON-RPC error", () => {
    expect(runs.ending.error).toMatchObject({ code: -32042, message: "mock failure" });
  });

  it("#elicit fails the prompt loudly when the client did not advertise elicitation", () => {
    expect(runs.refused.error).toMatchObject({ code: -32602, message: "#elicit: elicitation/create needs the client capability elicitation.form, which the client did not advertise" });
  });
});
