// DESIGN §2: every invariant of the method table, broken one row at a time,
// fails codegen with a message naming the row and the field.
import { describe, expect, it } from "vitest";
import { checkTable, TableError } from "../../codegen/check.ts";
import { generate } from "../../codegen/generate.ts";
import { methods, type MethodRow } from "../../method-table.ts";
import { realSchema } from "./support.ts";

const { schema } = realSchema();

/** The real table with the row for `wire` replaced by `change(row)`. */
function withRow(wire: string, change: (row: MethodRow) => MethodRow): MethodRow[] {
  const at = methods.findIndex((r) => r.wire === wire);
  if (at < 0) throw new Error(`no row for ${wire}`);
  return methods.map((r, i) => (i === at ? change(r) : r));
}

/** The real table without the row for `wire`, or with `extra` appended. */
const without = (wire: string): MethodRow[] => methods.filter((r) => r.wire !== wire);
const plus = (extra: MethodRow): MethodRow[] => [...methods, extra];

/** Runs the checker and returns the TableError it throws (failing the test when it does not). */
function tableError(rows: readonly MethodRow[]): TableError {
  try {
    checkTable(rows, schema);
  } catch (error) {
    if (error instanceof TableError) return error;
    throw error;
  }
  throw new Error("checkTable accepted the broken table");
}

/** Asserts the table fails with `problem` among its problems, and in its message. */
function expectProblem(rows: readonly MethodRow[], problem: string): readonly string[] {
  const error = tableError(rows);
  expect(error.problems).toContain(problem);
  expect(error.message).toContain(problem);
  return error.problems;
}

const extensionLike = { side: "agent", kind: "request", callback: "probe", params: "PromptRequest", result: "PromptResponse", layer: "app" } as const;

describe("the method table checker", () => {
  it("accepts the real table", () => {
    expect(() => checkTable(methods, schema)).not.toThrow();
  });

  describe("invariant 1: uniqueness", () => {
    it("rejects a second row with the same (side, wire)", () => {
      const session = methods.find((r) => r.wire === "session/new") as MethodRow;
      const problems = expectProblem(plus({ ...session, callback: "newSessionAgain" }), 'row "session/new" (agent): field "wire": duplicate: "session/new" is already handled by the agent side as a request');
      expect(problems).toHaveLength(1);
    });

    it("rejects a callback name used twice on one side", () => {
      const problems = expectProblem(
        withRow("session/load", (r) => ({ ...r, callback: "newSession" })),
        'row "session/load" (agent): field "callback": duplicate callback "newSession" on the agent side (also row "session/new" (agent))',
      );
      expect(problems).toHaveLength(1);
    });

    it("allows the same callback name on the two different sides", () => {
      expect(() =>
        checkTable(
          withRow("session/request_permission", (r) => ({ ...r, callback: "prompt" })),
          schema,
        ),
      ).not.toThrow();
    });
  });

  describe("invariant 2: a notification has no result, a request has one", () => {
    it("rejects a notification with a result", () => {
      const problems = expectProblem(
        withRow("session/update", (r) => ({ ...r, result: "PromptResponse" })),
        'row "session/update" (client): field "result": a notification has no result',
      );
      expect(problems).toHaveLength(1);
    });

    it("rejects a request without a result", () => {
      const { result: _dropped, ...rest } = methods.find((r) => r.wire === "fs/read_text_file") as MethodRow;
      expectProblem(
        withRow("fs/read_text_file", () => rest),
        'row "fs/read_text_file" (client): field "result": a request needs a result type',
      );
    });
  });

  describe("invariant 3: only app rows have callbacks", () => {
    it("rejects an app row without a callback", () => {
      const { callback: _dropped, ...rest } = methods.find((r) => r.wire === "session/prompt") as MethodRow;
      const problems = expectProblem(
        withRow("session/prompt", () => rest),
        'row "session/prompt" (agent): field "callback": an "app" row needs a callback',
      );
      expect(problems).toHaveLength(1);
    });

    it("rejects a session_control row with a callback", () => {
      const problems = expectProblem(
        withRow("session/cancel", (r) => ({ ...r, callback: "cancel" })),
        'row "session/cancel" (agent): field "callback": a "session_control" row is handled by the connection and has no callback',
      );
      expect(problems).toHaveLength(1);
    });

    it("rejects a protocol row with a callback", () => {
      const problems = expectProblem(
        withRow("$/cancel_request", (r) => ({ ...r, callback: "cancelRequest" })),
        'row "$/cancel_request" (both): field "callback": a "protocol" row is handled by the connection and has no callback',
      );
      expect(problems).toHaveLength(1);
    });
  });

  describe("invariant 4: wire prefixes", () => {
    it('rejects a "_" wire on a row not registered as an extension', () => {
      expectProblem(plus({ ...extensionLike, wire: "_example.com/probe" }), 'row "_example.com/probe" (agent): field "wire": "_"-prefixed wires are only allowed on registered extension rows (extension: true)');
    });

    it('rejects a "$/" wire on a row that is not a protocol row', () => {
      expectProblem(plus({ ...extensionLike, wire: "$/probe" }), 'row "$/probe" (agent): field "wire": "$/" wires and protocol rows go together');
    });

    it('rejects the "rpc." prefix JSON-RPC reserves', () => {
      expectProblem(plus({ ...extensionLike, wire: "rpc.discover" }), 'row "rpc.discover" (agent): field "wire": "rpc." is reserved by JSON-RPC 2.0');
    });
  });

  describe("invariant 5: capability paths", () => {
    it("rejects a path that is not in the handling side's capability type", () => {
      const problems = expectProblem(
        withRow("fs/read_text_file", (r) => ({ ...r, capability: ["fs", "readFile"] })),
        'row "fs/read_text_file" (client): field "capability": "fs.readFile" is not a property of ClientCapabilities',
      );
      expect(problems).toHaveLength(1);
    });

    it("looks the path up in the HANDLING side's capabilities, not the caller's", () => {
      const problems = expectProblem(
        withRow("session/load", (r) => ({ ...r, capability: ["fs", "readTextFile"] })),
        'row "session/load" (agent): field "capability": "fs" is not a property of AgentCapabilities',
      );
      expect(problems).toHaveLength(1);
    });
  });

  describe("row flags", () => {
    it("rejects cancelsSession on a client row or a notification", () => {
      expectProblem(
        withRow("fs/read_text_file", (r) => ({ ...r, cancelsSession: true })),
        'row "fs/read_text_file" (client): field "cancelsSession": only agent requests can cancel a session',
      );
    });

    it("rejects a lifecycle on a client row", () => {
      expectProblem(
        withRow("session/update", (r) => ({ ...r, lifecycle: "opens_session" })),
        'row "session/update" (client): field "lifecycle": only agent requests change the connection\'s lifecycle',
      );
    });

    it("requires exactly one initialize row", () => {
      expectProblem(
        withRow("initialize", (r) => {
          const { lifecycle: _, ...rest } = r;
          return rest;
        }),
        'table: field "lifecycle": exactly one row must be "initialize" (found 0)',
      );
    });

    it("rejects auth on a row the client handles", () => {
      expectProblem(
        withRow("fs/read_text_file", (r) => ({ ...r, auth: true })),
        'row "fs/read_text_file" (client): field "auth": only agent rows can require authentication',
      );
    });

    it("allows optional on a notification with a callback", () => {
      expect(() =>
        checkTable(
          withRow("session/update", (r) => ({ ...r, optional: true })),
          schema,
        ),
      ).not.toThrow();
    });

    it("rejects optional on a row without a callback", () => {
      expectProblem(
        withRow("session/cancel", (r) => ({ ...r, optional: true })),
        'row "session/cancel" (agent): field "optional": only rows with a callback can be optional',
      );
    });

    it("rejects optional on a row its capability already makes optional", () => {
      expectProblem(
        withRow("session/load", (r) => ({ ...r, optional: true })),
        'row "session/load" (agent): field "optional": a row gated by a capability is optional already',
      );
    });

    it("rejects an optional initialize row", () => {
      expectProblem(
        withRow("initialize", (r) => ({ ...r, optional: true })),
        'row "initialize" (agent): field "optional": the initialize row cannot be optional: every agent answers it',
      );
    });
  });

  describe("invariant 6: cross-check with the schema", () => {
    it("rejects a params name that is not in $defs", () => {
      expectProblem(
        withRow("session/prompt", (r) => ({ ...r, params: "PromptRequets" })),
        'row "session/prompt" (agent): field "params": "PromptRequets" is not a $defs name in the schema',
      );
    });

    it("rejects a result name that is not in $defs", () => {
      expectProblem(
        withRow("session/prompt", (r) => ({ ...r, result: "PromptReply" })),
        'row "session/prompt" (agent): field "result": "PromptReply" is not a $defs name in the schema',
      );
    });

    it("rejects a params name that exists in $defs but is not the schema's x-method type for the row", () => {
      const problems = expectProblem(
        withRow("session/prompt", (r) => ({ ...r, params: "NewSessionRequest" })),
        'row "session/prompt" (agent): field "params": the schema\'s definition is "PromptRequest"',
      );
      expect(problems).toHaveLength(1);
    });

    it("rejects a result name that exists in $defs but is not the schema's response type for the row", () => {
      const problems = expectProblem(
        withRow("session/prompt", (r) => ({ ...r, result: "NewSessionResponse" })),
        'row "session/prompt" (agent): field "result": the schema\'s definition is "PromptResponse"',
      );
      expect(problems).toHaveLength(1);
    });

    it("rejects a table that lacks a method the schema defines", () => {
      const problems = expectProblem(without("session/set_mode"), 'row "session/set_mode" (agent): missing: the schema defines this request (SetSessionModeRequest) but the table has no row for it');
      expect(problems).toHaveLength(1);
    });

    it("rejects a row whose kind disagrees with the schema", () => {
      const problems = expectProblem(
        withRow("session/update", (r) => ({ ...r, kind: "request", result: "PromptResponse" })),
        'row "session/update" (client): field "kind": the schema says "notification"',
      );
      expect(problems).toHaveLength(1);
    });

    it("rejects a row for a method the schema does not define", () => {
      const problems = expectProblem(plus({ ...extensionLike, wire: "session/fork", callback: "forkSession" }), 'row "session/fork" (agent): field "wire": the schema defines no such method for this side');
      expect(problems).toHaveLength(1);
    });
  });

  it("stops generate() before it emits anything", async () => {
    await expect(generate(without("session/set_mode"), schema)).rejects.toThrow(TableError);
    await expect(generate(without("session/set_mode"), schema)).rejects.toThrow('row "session/set_mode" (agent): missing');
  });
  describe("the shape of a row, checked before any invariant", () => {
    const summarize = { wire: "_acme/summarize", side: "agent", kind: "request", callback: "summarize", layer: "app", extension: true } as const;
    const inline = (params: Record<string, unknown>): MethodRow => ({ ...summarize, params, result: { type: "object" } });
    const only = (rows: readonly MethodRow[], problem: string) => expect(expectProblem(rows, problem)).toEqual([problem]);

    it("accepts an extension row whose inline schemas use only JSON Schema keywords", () => {
      expect(() => checkTable(plus(inline({ type: "object", properties: { text: { type: "string", "x-note": "annotations pass" } }, required: ["text"] })), schema)).not.toThrow();
    });

    it("rejects an unknown key and names the closest column", () => {
      const row = { ...inline({ type: "object" }), capabilty: ["loadSession"] } as unknown as MethodRow;
      only(plus(row), 'row "_acme/summarize" (agent): field "capabilty": unknown key — did you mean "capability"?');
    });

    it("rejects an unknown key that is close to no column without guessing", () => {
      const row = { ...inline({ type: "object" }), zzzzzzzz: 1 } as unknown as MethodRow;
      only(plus(row), 'row "_acme/summarize" (agent): field "zzzzzzzz": unknown key');
    });

    it("rejects an unknown side instead of generating a method no side handles", () => {
      only(plus({ ...inline({ type: "object" }), side: "agnet" } as unknown as MethodRow), 'row "_acme/summarize" (agnet): field "side": unknown value "agnet" — did you mean "agent"? (one of "agent", "client", "both")');
    });

    it("rejects an unknown kind instead of generating a router that does not compile", () => {
      only(plus({ ...inline({ type: "object" }), kind: "reqest" } as unknown as MethodRow), 'row "_acme/summarize" (agent): field "kind": unknown value "reqest" — did you mean "request"? (one of "request", "notification")');
    });

    it("rejects an unknown layer", () => {
      only(plus({ ...inline({ type: "object" }), layer: "ap" } as unknown as MethodRow), 'row "_acme/summarize" (agent): field "layer": unknown value "ap" — did you mean "app"? (one of "app", "protocol", "session_control")');
    });

    it("rejects an unknown lifecycle value", () => {
      only(
        withRow("session/new", (r) => ({ ...r, lifecycle: "open_session" }) as unknown as MethodRow),
        'row "session/new" (agent): field "lifecycle": unknown value "open_session" — did you mean "opens_session"? (one of "initialize", "authenticate", "logout", "opens_session", "closes_session")',
      );
    });

    it("rejects an unknown keyword in an inline schema, however deep, instead of loosening the schema", () => {
      only(plus(inline({ type: "object", properties: { text: { type: "string" } }, requird: ["text"] })), 'row "_acme/summarize" (agent): field "params": unknown JSON Schema keyword "requird" — did you mean "required"?');
      only(plus(inline({ type: "object", properties: { items: { type: "array", items: { type: "string", maxLenght: 3 } } } })), 'row "_acme/summarize" (agent): field "params": at /properties/items/items: unknown JSON Schema keyword "maxLenght" — did you mean "maxLength"?');
    });

    it("codegen refuses such a table before writing anything", async () => {
      await expect(generate(plus({ ...inline({ type: "object" }), side: "agnet" } as unknown as MethodRow), schema)).rejects.toThrow(TableError);
    });
  });
});
