/**
 * Version routing over a stream of message objects, as SDK 2.4.0's `AgentProtocolRouter` routes:
 * it reads until a valid `initialize` (before it, notifications and responses are ignored, another
 * request gets `-32600`, an array `-32600` with `id: null`, a malformed or unsupported
 * `initialize` its error; none of these closes the connection), picks the implementation (the
 * highest configured version at or below the one asked for; a v1-only router takes any), hands
 * it the `initialize` rewritten for its version (initialize-params.ts) and then every later item
 * as it came, the very objects, and reports the routed connection's end.
 */
import type { AgentConnectionLifecycle, AgentConnector } from "../by-method.ts";
import type { Stream } from "../message-stream.ts";
import { isNotification, isRecord, isRequest, isResponseShaped, nullIdError, type WireMessage } from "../serve/wire.ts";
import { initializeParamsFor } from "./initialize-params.ts";

/** The lifecycle `connect` returns: `closed` settles once the routed connection (or the unrouted stream) ended. */
export class RoutedLifecycle implements AgentConnectionLifecycle {
  readonly closed: Promise<void>;
  readonly #finish: () => void;
  #startRequested: boolean;
  #started = false;
  #selected: AgentConnectionLifecycle | undefined;

  /** `start`: whether the chosen implementation's connect handlers start as soon as it is connected (no deferral). */
  constructor(start: boolean) {
    this.#startRequested = start;
    let finish!: () => void;
    this.closed = new Promise<void>((resolve) => (finish = resolve));
    this.#finish = finish;
  }

  /** Starts the chosen implementation's connect handlers (once; when it is chosen, if that comes later). */
  startConnectHandlers(): void {
    this.#startRequested = true;
    this.#maybeStart();
  }

  /** The chosen implementation's connection. @internal */
  attach(connection: unknown): void {
    const lifecycle = connection as AgentConnectionLifecycle | null;
    if (typeof lifecycle === "object" && lifecycle !== null && (lifecycle.closed !== undefined || lifecycle.startConnectHandlers !== undefined)) this.#selected = lifecycle;
    this.#maybeStart();
    void this.#selected?.closed?.then(
      () => this.finish(),
      () => this.finish(),
    );
  }

  /** Settles `closed`. @internal */
  finish(): void {
    this.#finish();
  }

  #maybeStart(): void {
    if (!this.#startRequested || this.#started || this.#selected?.startConnectHandlers === undefined) return;
    this.#started = true;
    this.#selected.startConnectHandlers();
  }
}

/** The outcome of reading one message before initialization: route it, or answer it (or not) and read on. */
type FirstMessage = { readonly selected: 1 | 2; readonly initialize: WireMessage } | { readonly answer: WireMessage | undefined };

/** Highest protocol version the router reads (`uint16`). */
const MAX_VERSION = 0xffff;

/** Decides what to do with `message` before initialization (see the module comment). */
function judgeFirst(message: unknown, v1: boolean, v2: boolean): FirstMessage {
  if (Array.isArray(message)) return { answer: nullIdError(-32600, "Invalid request: JSON-RPC batches are not supported") };
  if (isNotification(message) || isResponseShaped(message)) return { answer: undefined };
  if (!isRequest(message)) return { answer: nullIdError(-32600, "Invalid request", "first ACP message must be an initialize request") };
  const refuse = (code: number, text: string, data?: unknown, id: unknown = message.id) => ({ answer: { jsonrpc: "2.0", id, error: data === undefined ? { code, message: text } : { code, message: text, data } } });
  if (message.method !== "initialize") return refuse(-32600, "Invalid request", "first ACP request must be initialize");
  const params = message["params"];
  const requested = isRecord(params) && !Array.isArray(params) ? params["protocolVersion"] : undefined;
  if (typeof requested !== "number" || !Number.isInteger(requested) || requested < 0 || requested > MAX_VERSION) return refuse(-32602, "Invalid params", "initialize.protocolVersion must be a valid ACP protocol version");
  const selected = v1 && !v2 ? 1 : v2 && requested >= 2 ? 2 : v1 && requested >= 1 ? 1 : undefined;
  if (selected === undefined) return refuse(-32022, "Unsupported protocol version", { requested, supported: [...(v1 ? [1] : []), ...(v2 ? [2] : [])] });
  if (selected === 2 && !(typeof message.id === "string" || Number.isInteger(message.id))) return refuse(-32600, "Invalid request: ACP v2 request IDs must be strings or integers", undefined, null);
  return { selected, initialize: { ...message, params: initializeParamsFor(params as Record<string, unknown>, requested, selected) } };
}

/** Routes `stream` to `v1` or `v2` (see the module comment); `lifecycle` reports it. Rejects when routing fails (the caller aborts the output). */
export async function routeMessages(stream: Stream, targets: { readonly v1?: AgentConnector; readonly v2?: AgentConnector }, lifecycle: RoutedLifecycle): Promise<void> {
  const reader = stream.readable.getReader() as ReadableStreamDefaultReader<unknown>;
  for (;;) {
    let next: ReadableStreamReadResult<unknown>;
    try {
      next = await reader.read();
    } catch (error) {
      reader.releaseLock();
      throw error;
    }
    if (next.done) {
      reader.releaseLock();
      const writer = stream.writable.getWriter();
      try {
        await writer.close();
      } finally {
        writer.releaseLock();
      }
      lifecycle.finish();
      return;
    }
    const judged = judgeFirst(next.value, targets.v1 !== undefined, targets.v2 !== undefined);
    if ("answer" in judged) {
      if (judged.answer !== undefined) {
        const writer = stream.writable.getWriter();
        try {
          await writer.write(judged.answer as never);
        } finally {
          writer.releaseLock();
        }
      }
      continue;
    }
    const agent = judged.selected === 2 ? targets.v2 : targets.v1;
    if (agent === undefined) throw new Error("selected ACP protocol implementation is not configured");
    const routed = { readable: routedReadable(reader, judged.initialize, lifecycle), writable: stream.writable } as unknown as Stream;
    try {
      lifecycle.attach(agent.connect(routed, { deferConnectHandlers: true }));
    } catch (error) {
      try {
        await reader.cancel(error);
      } catch {
        // The connector's failure is the one reported.
      } finally {
        reader.releaseLock();
      }
      throw error;
    }
    return;
  }
}

/** The routed input: the rewritten `initialize`, then what `source` reads, as it comes; its end (or cancel) ends the lifecycle. */
function routedReadable(source: ReadableStreamDefaultReader<unknown>, initialize: WireMessage, lifecycle: RoutedLifecycle): ReadableStream<unknown> {
  let first: WireMessage | undefined = initialize;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    source.releaseLock();
  };
  return new ReadableStream<unknown>({
    async pull(controller) {
      if (first !== undefined) {
        controller.enqueue(first);
        first = undefined;
        return;
      }
      try {
        const next = await source.read();
        if (next.done) {
          release();
          controller.close();
          lifecycle.finish();
          return;
        }
        controller.enqueue(next.value);
      } catch (error) {
        release();
        controller.error(error);
        lifecycle.finish();
      }
    },
    async cancel(reason) {
      try {
        await source.cancel(reason);
      } finally {
        release();
        lifecycle.finish();
      }
    },
  });
}
