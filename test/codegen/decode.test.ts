// The generated decoder: every app row accepts a valid example and rejects an
// invalid one per location; prototype names are unknown methods; leniency repairs
// exactly the schema's lenient locations.
import { describe, expect, it } from "vitest";
import { methods } from "../../method-table.ts";
import { decode as decodeWith } from "../../src/decode.ts";
import { protocol } from "../../src/generated/protocol.ts";
import type { Leniency } from "../../src/validation/check.ts";

/** The runtime's table-driven decode (the one the connection runs), over the v1 table. */
const decode = (side: "agent" | "client", kind: "request" | "notification", wire: string, params: unknown, mode?: Leniency) => decodeWith(protocol, side, kind, wire, params, mode);
const { inboundRow, resultMarker } = protocol;

type HandlingSide = "agent" | "client";
type Kind = "request" | "notification";

interface Example {
  /** Params the schema accepts as they are. */
  readonly valid: unknown;
  /** Params the schema rejects, and the instance locations it names. */
  readonly invalid: unknown;
  readonly paths: readonly string[];
}

const sessionId = "sess-1";

/** One hand-written example per app row, keyed `side wire`. */
const examples: Record<string, Example> = {
  "agent initialize": {
    valid: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: "zed", version: "1.0.0" } },
    invalid: { protocolVersion: "one" },
    paths: ["/protocolVersion"],
  },
  "agent authenticate": { valid: { methodId: "api-key" }, invalid: { methodId: 5 }, paths: ["/methodId"] },
  "agent logout": { valid: {}, invalid: [], paths: [""] },
  "agent session/new": {
    valid: { cwd: "/project", mcpServers: [{ name: "fs", command: "mcp-fs", args: [], env: [] }] },
    invalid: { mcpServers: "none" },
    paths: ["/cwd", "/mcpServers"],
  },
  "agent session/load": { valid: { sessionId, cwd: "/project", mcpServers: [] }, invalid: { cwd: "/project", mcpServers: [] }, paths: ["/sessionId"] },
  "agent session/list": { valid: { cwd: "/project", cursor: null }, invalid: { cwd: 5 }, paths: ["/cwd"] },
  "agent session/delete": { valid: { sessionId }, invalid: {}, paths: ["/sessionId"] },
  "agent session/resume": { valid: { sessionId, cwd: "/project" }, invalid: { sessionId }, paths: ["/cwd"] },
  "agent session/close": { valid: { sessionId }, invalid: { sessionId: null }, paths: ["/sessionId"] },
  "agent session/set_mode": { valid: { sessionId, modeId: "code" }, invalid: { sessionId, modeId: 3 }, paths: ["/modeId"] },
  "agent session/set_config_option": { valid: { sessionId, configId: "model", value: "fast" }, invalid: { sessionId, value: "fast" }, paths: ["/configId"] },
  "agent session/prompt": { valid: { sessionId, prompt: [{ type: "text", text: "hi" }] }, invalid: { sessionId, prompt: [{ type: "text" }] }, paths: ["/prompt/0/text"] },
  "client session/request_permission": {
    valid: { sessionId, toolCall: { toolCallId: "call-1" }, options: [{ optionId: "yes", name: "Allow", kind: "allow_once" }] },
    invalid: { sessionId, toolCall: { toolCallId: "call-1" }, options: [{ optionId: "yes", name: "Allow", kind: "maybe" }] },
    paths: ["/options/0/kind"],
  },
  "client session/update": {
    valid: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hello" } } },
    invalid: { sessionId, update: { sessionUpdate: "no_such_update" } },
    paths: ["/update"],
  },
  "client fs/read_text_file": { valid: { sessionId, path: "/project/a.txt", line: 1, limit: 10 }, invalid: { sessionId, path: "/project/a.txt", line: -1 }, paths: ["/line"] },
  "client fs/write_text_file": { valid: { sessionId, path: "/project/a.txt", content: "x" }, invalid: { sessionId, path: "/project/a.txt" }, paths: ["/content"] },
  "client terminal/create": {
    valid: { sessionId, command: "ls", args: ["-l"], env: [{ name: "LANG", value: "C" }] },
    invalid: { sessionId, command: "ls", env: [{ name: "LANG" }] },
    paths: ["/env/0/value"],
  },
  "client terminal/output": { valid: { sessionId, terminalId: "term-1" }, invalid: { sessionId }, paths: ["/terminalId"] },
  "client terminal/release": { valid: { sessionId, terminalId: "term-1" }, invalid: { sessionId, terminalId: 1 }, paths: ["/terminalId"] },
  "client terminal/wait_for_exit": { valid: { sessionId, terminalId: "term-1" }, invalid: { terminalId: "term-1" }, paths: ["/sessionId"] },
  "client terminal/kill": { valid: { sessionId, terminalId: "term-1" }, invalid: {}, paths: ["/sessionId", "/terminalId"] },
  "client elicitation/create": {
    valid: { sessionId, message: "Your name?", mode: "form", requestedSchema: { type: "object", properties: {} } },
    invalid: { sessionId, mode: "form", requestedSchema: { type: "object", properties: {} } },
    paths: ["/message"],
  },
  "client elicitation/complete": { valid: { elicitationId: "elic-1" }, invalid: { elicitationId: 3 }, paths: ["/elicitationId"] },
};

const appRows = methods.filter((r) => r.layer === "app").map((r) => ({ side: r.side as HandlingSide, kind: r.kind, wire: r.wire }));
const clone = <T>(value: T): T => structuredClone(value);

describe("decode", () => {
  it("has an example for every app row of the table, and no other", () => {
    expect(Object.keys(examples).sort()).toEqual(appRows.map((r) => `${r.side} ${r.wire}`).sort());
  });

  describe.each(appRows)("$side $kind $wire", ({ side, kind, wire }) => {
    const example = examples[`${side} ${wire}`] as Example;

    it("accepts valid params as they are, with no repairs", () => {
      const params = clone(example.valid);
      const decoded = decode(side, kind, wire, params);
      expect(decoded.tag).toBe("ok");
      if (decoded.tag !== "ok") return;
      expect(decoded.row.wire).toBe(wire);
      expect(decoded.params).toEqual(example.valid);
      expect(decoded.repairs).toBeUndefined();
    });

    it("rejects invalid params with one error per instance location", () => {
      const decoded = decode(side, kind, wire, clone(example.invalid));
      expect(decoded.tag).toBe("invalid_params");
      if (decoded.tag !== "invalid_params") return;
      expect(decoded.row.wire).toBe(wire);
      expect(decoded.errors.map((e) => e.path)).toEqual(example.paths);
      for (const e of decoded.errors) expect(e.message).not.toBe("");
    });
  });

  it("reports what is wrong at each location", () => {
    const decoded = decode("agent", "request", "session/new", { mcpServers: "none" });
    expect(decoded.tag === "invalid_params" && decoded.errors).toEqual([
      { path: "/cwd", message: "is required" },
      { path: "/mcpServers", message: "must be array" },
    ]);
  });

  it("treats absent params as an empty object", () => {
    expect(decode("agent", "request", "logout", undefined).tag).toBe("ok");
    expect(decode("agent", "request", "session/delete", undefined)).toMatchObject({ tag: "invalid_params", errors: [{ path: "/sessionId" }] });
  });
});

describe("decode of names that live on Object.prototype", () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
  const combos: [HandlingSide, Kind][] = [
    ["agent", "request"],
    ["agent", "notification"],
    ["client", "request"],
    ["client", "notification"],
  ];

  it.each(names)("answers %s as method_not_found on both sides and kinds", (wire) => {
    for (const [side, kind] of combos) {
      expect(decode(side, kind, wire, {})).toEqual({ tag: "method_not_found", wire });
      expect(inboundRow(side, kind, wire)).toBeUndefined();
    }
    expect(resultMarker("agent", wire)).toBeUndefined();
    expect(resultMarker("client", wire)).toBeUndefined();
  });
});

describe("decode of params carrying a __proto__ key", () => {
  const cases = [
    ["an accepted message", "agent", "request", "session/prompt", '{"sessionId":"s","prompt":[],"__proto__":{"polluted":"yes"}}', "ok"],
    ["a repaired message", "agent", "request", "initialize", '{"protocolVersion":1,"clientCapabilities":{"fs":"garbage","__proto__":{"polluted":"yes"}}}', "ok"],
    ["a rejected message", "agent", "request", "initialize", '{"protocolVersion":"x","__proto__":{"polluted":"yes"}}', "invalid_params"],
    ["a nested __proto__", "client", "notification", "session/update", '{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[],"__proto__":{"polluted":"yes"}}}', "ok"],
  ] as const;

  it("parses __proto__ from JSON as an own property, as a wire message would carry it", () => {
    expect(Object.hasOwn(JSON.parse('{"__proto__":{"polluted":"yes"}}') as object, "__proto__")).toBe(true);
  });

  it.each(cases)("leaves Object.prototype unpolluted for %s", (_name, side, kind, wire, json, tag) => {
    expect(decode(side, kind, wire, JSON.parse(json)).tag).toBe(tag);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("leniency", () => {
  const garbageFs = () => ({ protocolVersion: 1, clientCapabilities: { fs: "garbage", terminal: true } });

  it("repairs initialize's clientCapabilities.fs to its default by default", () => {
    const decoded = decode("agent", "request", "initialize", garbageFs());
    expect(decoded.tag).toBe("ok");
    if (decoded.tag !== "ok") return;
    expect(decoded.repairs).toEqual([{ path: "/clientCapabilities/fs", action: "default" }]);
    expect(decoded.params).toEqual({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: true } });
  });

  it('rejects the same params in "strict" mode, without touching them', () => {
    const params = garbageFs();
    const decoded = decode("agent", "request", "initialize", params, "strict");
    expect(decoded).toMatchObject({ tag: "invalid_params", errors: [{ path: "/clientCapabilities/fs", message: "must be object" }] });
    expect(params.clientCapabilities.fs).toBe("garbage");
  });

  const toolCall = () => ({
    sessionId,
    update: {
      sessionUpdate: "tool_call",
      toolCallId: "call-1",
      title: "Read a.txt",
      content: [{ type: "content", content: { type: "text", text: "kept" } }, { type: "no_such_content" }, { type: "content", content: { type: "text", text: "also kept" } }],
    },
  });

  it("drops the one invalid item of a tool_call's content and keeps the others", () => {
    const decoded = decode("client", "notification", "session/update", toolCall());
    expect(decoded.tag).toBe("ok");
    if (decoded.tag !== "ok") return;
    expect(decoded.repairs).toEqual([{ path: "/update/content/1", action: "dropped_item" }]);
    expect((decoded.params as ReturnType<typeof toolCall>).update.content).toEqual([
      { type: "content", content: { type: "text", text: "kept" } },
      { type: "content", content: { type: "text", text: "also kept" } },
    ]);
  });

  it('rejects that item in "strict" mode at its location', () => {
    const decoded = decode("client", "notification", "session/update", toolCall(), "strict");
    expect(decoded.tag === "invalid_params" && decoded.errors.map((e) => e.path)).toEqual(["/update/content/1"]);
  });

  it("replaces a null list marked default-on-null with an empty list, as the reference SDK does", () => {
    const decoded = decode("agent", "request", "session/new", { cwd: "/project", mcpServers: null, additionalDirectories: null });
    expect(decoded.tag).toBe("ok");
    if (decoded.tag !== "ok") return;
    expect(decoded.params).toEqual({ cwd: "/project", mcpServers: [], additionalDirectories: [] });
    expect(decoded.repairs).toEqual([
      { path: "/additionalDirectories", action: "default" },
      { path: "/mcpServers", action: "default" },
    ]);
  });

  it("does not repair a location the schema does not mark lenient", () => {
    const decoded = decode("agent", "request", "session/prompt", { sessionId, prompt: [{ type: "text", text: "ok" }, { type: "no_such_block" }] });
    expect(decoded.tag === "invalid_params" && decoded.errors.map((e) => e.path)).toEqual(["/prompt/1"]);
  });
});
