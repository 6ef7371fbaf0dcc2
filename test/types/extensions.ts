/**
 * Type tests for extensions without codegen: handler and caller types are
 * inferred from the validators (zod schemas, type guards). Never run:
 * `tsc --noEmit` checks them, and test/codegen/type-tests.test.ts proves each
 * `@ts-expect-error` line guards a real error.
 */
import { z } from "zod";
import { defineExtension, type AgentHandler, type ClientConnection, type ClientPeer, type ExtensionRequest } from "../../src/index.ts";

const echo = defineExtension({
  wire: "_example.com/echo",
  params: z.object({ text: z.string(), times: z.number().default(1) }),
  result: z.object({ text: z.string() }).transform((r) => ({ ...r, length: r.text.length })),
});
const progress = defineExtension({ wire: "_example.com/progress", params: z.object({ percent: z.number() }) });
const isCount = (value: unknown): value is { count: number } => typeof (value as { count?: unknown } | null)?.count === "number";
const count = defineExtension({ wire: "_example.com/count", params: isCount, result: isCount });

/** The handler receives the params schema's output (defaults filled) and returns its result schema's input. */
export const handlers = [
  echo.handle((p) => {
    const times: number = p.times;
    return { text: p.text.repeat(times) };
  }),
  // @ts-expect-error the params have no `nope`
  echo.handle((p) => ({ text: p.nope })),
  // @ts-expect-error the result needs a string `text`
  echo.handle(() => ({ text: 1 })),
  count.handle((p) => ({ count: p.count + 1 })),
  // @ts-expect-error a guard's type is the params' type
  count.handle((p) => ({ count: p.text })),
  progress.handle((p) => void p.percent.toFixed()),
  echo.handle<ClientPeer>((_, ctx) => ctx.peer.sessionUpdate({ sessionId: "s", update: { sessionUpdate: "plan", entries: [] } }).then(() => ({ text: "" }))),
];

/** The caller sends the params schema's input (defaults optional) and gets the result schema's output. */
export async function caller(conn: ClientConnection): Promise<void> {
  const answer = await conn.request(echo, { text: "hi" });
  const length: number = answer.length;
  // @ts-expect-error the params need a string `text`
  await conn.request(echo, { text: 1 });
  // @ts-expect-error the params need `text`
  await conn.request(echo, {});
  // @ts-expect-error a notification is sent with notify
  await conn.request(progress, { percent: 1 });
  await conn.notify(progress, { percent: 1 });
  // @ts-expect-error a notification's params are typed too
  await conn.notify(progress, { percent: "half" });
  const counted: { count: number } = await conn.request(count, { count: length });
  void counted;
}

/** `request<R>(wire, params)`: untyped `_` methods, a plain interface as params, the caller's claim as result. */
interface Ping {
  readonly at: number;
}
export async function untyped(conn: ClientConnection, ping: Ping): Promise<string> {
  const pong = await conn.request<{ pong: string }>("_example.com/ping", ping);
  const unknownResult: unknown = await conn.request("_example.com/ping", ping);
  void unknownResult;
  // @ts-expect-error untyped calls are for `_` wires only
  await conn.request<{ pong: string }>("example.com/ping", ping);
  return pong.pong;
}

/** A definition can be annotated with plain types when the validators do not carry them. */
export const annotated: ExtensionRequest<{ text: string }, { text: string }> = defineExtension({ wire: "_a", params: z.object({ text: z.string() }), result: z.object({ text: z.string() }) });

// @ts-expect-error extension wires start with `_`
export const unprefixed = defineExtension({ wire: "echo", params: isCount });

/** `extMethod` may answer any object type, including a plain interface. */
interface Answer {
  readonly ok: boolean;
}
export const extMethod: NonNullable<AgentHandler["extMethod"]> = (): Answer => ({ ok: true });
