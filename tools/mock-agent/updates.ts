/**
 * Sample `session/update` payloads for the mock agent and `check --client`:
 * one valid sample (or a few, where a kind has variants worth probing) per
 * update kind of the pinned v1 and v2 schemas, plus an unknown kind and a
 * `_meta`-laden update for forward-compatibility probes.
 *
 * The samples are the `update` object only; the sender adds `sessionId`.
 * Ids inside them (tool calls, terminals, plans, messages) are fixed, so a
 * client that keys state by id sees one tool call move through its statuses.
 * `test/tools/mock-agent-updates.test.ts` validates every sample against the
 * generated validators and fails when a schema lists a kind without one.
 */

/** A protocol surface the samples exist for: 1 = the stable v1 schema, 2 = the v2 schema. */
export type SampleVersion = 1 | 2;

/** A JSON object as the samples build it. */
export type JsonObject = Record<string, unknown>;

/** One sample: its `sessionUpdate` kind, a label naming the variant, the payload, and the client capability it needs. */
export interface UpdateSample {
  /** The `sessionUpdate` discriminator. */
  readonly kind: string;
  /** Kind plus variant, unique in the list (`tool_call/kind=read/status=pending`). */
  readonly label: string;
  /** The `update` object of the notification. */
  readonly update: JsonObject;
  /**
   * Path in the client's capabilities that must be truthy before an agent may
   * send this kind (v1 `notice` needs `session.notices`); absent when none is needed.
   */
  readonly requires?: readonly string[];
}

/** The session modes the mock agent advertises (v1 `modes`), so `current_mode_update` names a real one. */
export const mockModes = {
  currentModeId: "ask",
  availableModes: [
    { id: "ask", name: "Ask", description: "Asks before every change" },
    { id: "code", name: "Code", description: "Edits without asking" },
  ],
} as const;

/** The session config options the mock agent advertises for `version`, so `config_option_update` repeats a known set. */
export function mockConfigOptions(version: SampleVersion, model = "mock-small", verbose = false, boolean = true): JsonObject[] {
  const idKey = version === 1 ? "id" : "configId";
  return [
    {
      [idKey]: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: model,
      options: [
        { value: "mock-small", name: "Mock small" },
        { value: "mock-large", name: "Mock large" },
      ],
    },
    // v1 agents MUST NOT offer a boolean option to a client that did not advertise
    // session.configOptions.boolean: such a client gets `verbose` as a select of "on" and "off".
    boolean
      ? { [idKey]: "verbose", name: "Verbose", type: "boolean", currentValue: verbose }
      : {
          [idKey]: "verbose",
          name: "Verbose",
          type: "select",
          currentValue: verbose ? "on" : "off",
          options: [
            { value: "off", name: "Off" },
            { value: "on", name: "On" },
          ],
        },
  ];
}

/** Whether a v1 client advertised boolean config options (`clientCapabilities.session.configOptions.boolean`). */
export function booleanConfigAdvertised(clientCapabilities: unknown): boolean {
  const session = (clientCapabilities as { session?: { configOptions?: { boolean?: unknown } | null } | null } | undefined)?.session;
  const flag = session?.configOptions?.boolean;
  return flag !== undefined && flag !== null && flag !== false;
}

const toolKinds = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"] as const;
const v1Statuses = ["pending", "in_progress", "completed", "failed"] as const;
const v2Statuses = ["pending", "in_progress", "paused", "completed", "failed", "cancelled"] as const;
/** A path that is absolute on every platform a client runs on (the samples never touch it). */
const samplePath = "/mock-agent/sample.txt";

function text(value: string): JsonObject {
  return { type: "text", text: value };
}

function sample(kind: string, variant: string, body: JsonObject, requires?: readonly string[]): UpdateSample {
  const label = variant === "" ? kind : `${kind}/${variant}`;
  const update = { sessionUpdate: kind, ...body };
  return requires === undefined ? { kind, label, update } : { kind, label, update, requires };
}

function chunks(version: SampleVersion): UpdateSample[] {
  const id = (name: string): JsonObject => (version === 1 ? {} : { messageId: `mock-${name}-1` });
  return [
    sample("agent_message_chunk", "", { ...id("agent"), content: text("Hello from the mock agent.") }),
    sample("user_message_chunk", "", { ...id("user"), content: text("A replayed user line.") }),
    sample("agent_thought_chunk", "", { ...id("thought"), content: text("Thinking about the request.") }),
  ];
}

function v1ToolCalls(): UpdateSample[] {
  const calls = toolKinds.map((kind, i) => {
    const status = v1Statuses[i % v1Statuses.length] ?? "pending";
    const content = kind === "edit" ? [{ type: "diff", path: samplePath, oldText: "old line\n", newText: "new line\n" }] : [{ type: "content", content: text(`Tool call of kind ${kind}.`) }];
    return sample("tool_call", `kind=${kind}/status=${status}`, {
      toolCallId: `mock-tool-${kind}`,
      title: `Mock ${kind} tool`,
      kind,
      status,
      content,
      locations: [{ path: samplePath, line: 1 }],
      rawInput: { kind },
    });
  });
  const updates = v1Statuses.map((status) =>
    sample("tool_call_update", `status=${status}`, {
      toolCallId: "mock-tool-read",
      status,
      ...(status === "completed" ? { rawOutput: { ok: true }, content: [{ type: "content", content: text("read 1 line") }] } : {}),
    }),
  );
  return [...calls, ...updates];
}

function v2ToolCalls(): UpdateSample[] {
  const created = toolKinds.map((kind, i) => {
    const status = v2Statuses[i % v2Statuses.length] ?? "pending";
    return sample("tool_call_update", `kind=${kind}/status=${status}`, {
      toolCallId: `mock-tool-${kind}`,
      title: `Mock ${kind} tool`,
      kind,
      status,
      locations: [{ path: samplePath, line: 1 }],
      rawInput: { kind },
    });
  });
  const statuses = v2Statuses.map((status) => sample("tool_call_update", `status=${status}`, { toolCallId: "mock-tool-read", status }));
  const content = [
    sample("tool_call_content_chunk", "content", { toolCallId: "mock-tool-read", content: { type: "content", content: text("read 1 line") } }),
    sample("tool_call_content_chunk", "diff", { toolCallId: "mock-tool-edit", content: { type: "diff", changes: [{ operation: "modify", path: samplePath }] } }),
  ];
  return [...created, ...statuses, ...content];
}

function plan(version: SampleVersion): UpdateSample[] {
  const entries = [
    { content: "Read the file", priority: "high", status: "completed" },
    { content: "Change the file", priority: "medium", status: "in_progress" },
    { content: "Run the tests", priority: "low", status: "pending" },
  ];
  return version === 1 ? [sample("plan", "", { entries })] : [sample("plan_update", "", { plan: { type: "items", planId: "mock-plan-1", entries } })];
}

function commands(version: SampleVersion): UpdateSample {
  const typed = version === 1 ? {} : { type: "command" };
  const input = version === 1 ? { hint: "what to search for" } : { type: "text", hint: "what to search for" };
  return sample("available_commands_update", "", {
    availableCommands: [
      { ...typed, name: "explain", description: "Explain the selection" },
      { ...typed, name: "search", description: "Search the workspace", input },
    ],
  });
}

function session(version: SampleVersion): UpdateSample[] {
  const notices = version === 1 ? ["session", "notices"] : undefined;
  const compaction = version === 1 ? ["session", "compaction"] : undefined;
  return [
    sample("config_option_update", "", { configOptions: mockConfigOptions(version, "mock-large", false, version === 2) }),
    sample("session_info_update", "", { title: "Mock session", updatedAt: "2026-01-01T00:00:00Z" }),
    sample("usage_update", "", { used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } }),
    sample("notice", "", { severity: "info", title: "Mock notice", description: "A notice outside the session history." }, notices),
    sample("compaction_update", "status=in_progress", { compactionId: "mock-compaction-1", status: "in_progress" }, compaction),
    sample("compaction_summary_chunk", "", { compactionId: "mock-compaction-1", content: text("Summary so far.") }, compaction),
    sample("compaction_update", "status=completed", { compactionId: "mock-compaction-1", status: "completed" }, compaction),
  ];
}

function v1Only(): UpdateSample[] {
  return [sample("current_mode_update", "", { currentModeId: "code" })];
}

function v2Only(): UpdateSample[] {
  const content = [text("A whole message.")];
  return [
    sample("user_message", "", { messageId: "mock-user-2", content }),
    sample("agent_message", "", { messageId: "mock-agent-2", content }),
    sample("agent_thought", "", { messageId: "mock-thought-2", content: [text("A whole thought.")] }),
    // `idle` ends a v2 turn, so the samples only report the other states.
    sample("state_update", "state=running", { state: "running" }),
    sample("state_update", "state=requires_action", { state: "requires_action" }),
    sample("state_update", "state=running/again", { state: "running" }),
    sample("terminal_update", "started", { terminalId: "mock-term-1", command: "echo mock", cwd: "/mock-agent" }),
    sample("terminal_output_chunk", "", { terminalId: "mock-term-1", data: "mock\n" }),
    sample("terminal_update", "exited", { terminalId: "mock-term-1", exitStatus: { exitCode: 0, signal: null } }),
  ];
}

/**
 * Every sample for `version`, in an order a client can replay as one turn
 * (tool calls are created before they are updated, a compaction starts
 * before its summary). Each call returns fresh objects.
 */
export function updateSamples(version: SampleVersion): UpdateSample[] {
  const toolCalls = version === 1 ? v1ToolCalls() : v2ToolCalls();
  const extra = version === 1 ? v1Only() : v2Only();
  return [...chunks(version), ...toolCalls, ...plan(version), commands(version), ...extra, ...session(version)];
}

/** The distinct kinds `updateSamples(version)` covers, in first-seen order. */
export function sampleKinds(version: SampleVersion): string[] {
  return [...new Set(updateSamples(version).map((s) => s.kind))];
}

/** The kind `unknownUpdate` sends: not in any pinned schema, and not `_`-prefixed (a future ACP kind, not an extension). */
export const unknownKind = "mock_future_update";

/**
 * An update of a kind no pinned schema knows, shaped like a future ACP kind.
 * A v2 client must accept it (the schema's open `other` variant); a v1 client
 * should ignore it rather than fail the session (the v1 schema is closed).
 */
export function unknownUpdate(): JsonObject {
  return { sessionUpdate: unknownKind, detail: { note: "a kind from a later protocol version" }, items: [1, 2, 3] };
}

/**
 * An `agent_message_chunk` carrying `_meta` on the update and its content,
 * with nested, null and vendor-prefixed keys, valid in both versions.
 */
export function metaLadenUpdate(version: SampleVersion): JsonObject {
  const meta = { "acp-router.dev/mock": { nested: { depth: 2, list: [1, "two", null] } }, traceId: "mock-trace-1", empty: null };
  return {
    sessionUpdate: "agent_message_chunk",
    ...(version === 2 ? { messageId: "mock-meta-1" } : {}),
    content: { type: "text", text: "A chunk with _meta.", _meta: meta },
    _meta: meta,
  };
}
