/**
 * `acp-router mock-agent` driven by our example client over ACP v2 (the
 * client's v2 mode, `runClient({ protocol: 2 })`) through every element v2
 * has, over stdio and `--listen --protocol 2` (Streamable HTTP, WebSocket).
 * Per transport: one run of the elements whose turn ends, one of `#hang`
 * (cancelled) then `#error`, and one each for the steps v2 or this client
 * cannot serve (fs: v2 has none; elicitation: the client does not advertise it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClient, type RunClientOptions } from "../../examples/client.ts";
import { listeningMockAgent, mockAgent, mockCwd, segments } from "./mock-agent-support.ts";

const ended = (s: string) => expect(s).toContain("[stop: end_turn]");

const elements: readonly { readonly prompt: string; readonly check: (shown: string) => void }[] = [
  { prompt: "hello mock", check: (s) => (expect(s).toContain("(agent_thought_chunk)\nhello mock\n"), ended(s)) },
  {
    prompt: "#updates all",
    check(s) {
      expect(s.split("(tool_call_update)").length - 1).toBe(16);
      for (const shown of [
        "plan: [x] Read the file",
        "(tool_call_content_chunk)",
        "(agent_message)",
        "(agent_thought)",
        "(terminal_update)",
        "(terminal_output_chunk)",
        "(available_commands_update)",
        "(config_option_update)",
        "(session_info_update)",
        "(usage_update)",
        "(notice)",
        "(compaction_update)",
        "(compaction_summary_chunk)",
      ])
        expect(s).toContain(shown);
      ended(s);
    },
  },
  { prompt: "#updates message 3", check: (s) => (expect(s.split("Hello from the mock agent.").length - 1).toBe(3), ended(s)) },
  { prompt: "#permission", check: (s) => (expect(s).toContain("-> allow (policy allow)"), expect(s).toContain("[mock] permission: selected allow"), ended(s)) },
  { prompt: "#big 100000", check: (s) => (expect(s.slice(s.indexOf(")\n") + 2, s.indexOf("[mock] sent a message of 100000 bytes"))).toHaveLength(100_000), ended(s)) },
  { prompt: "#sleep 20", check: ended },
  { prompt: "#unknown-update", check: (s) => (expect(s).toContain("(mock_future_update)"), ended(s)) },
  { prompt: "#meta", check: (s) => (expect(s).toContain("A chunk with _meta."), ended(s)) },
  { prompt: "#foreign-session", check: (s) => (expect(s).toContain("An update for a session you never opened."), ended(s)) },
  { prompt: "first\n#error -32043 later", check: (s) => (expect(s).toContain("first\n"), expect(s).toContain("[stop: error]")) },
];

interface Runs {
  readonly transcript: string;
  readonly stopReasons: readonly string[];
  readonly ending: { readonly transcript: string; readonly error: unknown };
  readonly read: unknown;
  readonly elicit: unknown;
}

async function drive(base: RunClientOptions): Promise<Runs> {
  const cwd = mockCwd();
  let transcript = "";
  const main = await runClient({ ...base, cwd, prompts: elements.map((e) => e.prompt), output: { write: (t: string) => (transcript += t) } });
  let ending = "";
  const endingError = await runClient({ ...base, cwd, cancelAfterMs: 300, prompts: ["#hang", "#error -32042 mock failure"], output: { write: (t: string) => (ending += t) } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  const refused = (prompt: string) =>
    runClient({ ...base, cwd, prompts: [prompt], output: { write: () => {} } }).then(
      () => undefined,
      (e: unknown) => e,
    );
  return { transcript, stopReasons: main.stopReasons, ending: { transcript: ending, error: endingError }, read: await refused("#read notes.txt"), elicit: await refused("#elicit") };
}

describe.each(["stdio", "http", "websocket"] as const)("mock-agent driven by the example client over v2, %s", (transport) => {
  let runs: Runs;
  let stop: (() => Promise<number | null>) | undefined;

  beforeAll(async () => {
    if (transport === "stdio") {
      runs = await drive({ agentCommand: mockAgent(), protocol: 2, agentStderr: "capture" });
      return;
    }
    const server = await listeningMockAgent(["--protocol", "2"]);
    stop = server.stop;
    runs = await drive({ url: transport === "http" ? server.url : server.url.replace(/^http/, "ws"), protocol: 2 });
  }, 60_000);
  afterAll(async () => {
    if (stop) expect(await stop()).toBe(0);
  });

  it("ends each turn as the element says", () => {
    expect(runs.stopReasons).toEqual([...elements.slice(0, -1).map(() => "end_turn"), "error"]);
  });

  it.each(elements.map((e) => [e.prompt, e] as const))("%s", (prompt, element) => {
    const shown = segments(
      runs.transcript,
      elements.map((e) => e.prompt),
    ).get(prompt);
    expect(shown, `no transcript for ${prompt}`).toBeDefined();
    element.check(shown ?? "");
  });

  it("#hang ends cancelled after session/cancel; #error as the first step answers the prompt with it", () => {
    expect(segments(runs.ending.transcript, ["#hang"]).get("#hang")).toContain("[stop: cancelled]");
    expect(runs.ending.error).toMatchObject({ code: -32042, message: "mock failure" });
  });

  it("#read answers that v2 has no fs method; #elicit that the client did not advertise elicitation", () => {
    expect(runs.read).toMatchObject({ code: -32602, message: "#read: ACP v2 has no fs/read_text_file method (v2 clients offer no fs or terminal methods)" });
    expect(runs.elicit).toMatchObject({ code: -32602, message: "#elicit: elicitation/create needs the client capability elicitation.form, which the client did not advertise" });
  });
});
