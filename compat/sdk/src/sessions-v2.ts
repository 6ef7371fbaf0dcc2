/**
 * The ACP v2 client's `ActiveSession`, as SDK 2.4.0's v2 API has it: one session's updates as a
 * queue read with `nextUpdate()`, where an idle `state_update` is read as a `stop` message (v2
 * reports idle foreground work, not the end of one prompt: `prompt()` resolves with the inserted
 * message's id and queues nothing); the session's config options, background work and the tool
 * calls and terminals that advertise `cancel`, kept from the updates as they arrive;
 * `readTextUntilIdle()` collects the agent's text up to the next idle.
 */
import * as guards from "./guards.ts";
import { requestOptions, type Sender } from "./sender.ts";
import type { SessionRoutes } from "./session-routes.ts";
import type { SendRequestOptions } from "./wire-types.ts";

type Json = Record<string, unknown>;
type Notification = Json & { sessionId: string; update: Json };

/** One item of a v2 active session's queue: an update, or idle (`stop`, with the idle update's `stopReason`). */
export type ActiveSessionMessage = { kind: "session_update"; notification: Notification; update: Json } | { kind: "stop"; notification: Notification; update: Json; stopReason: unknown };

/** A queue read one item at a time; a read can be abandoned with a signal (nothing is lost), and failing the queue fails every read. */
class UpdateQueue<T> {
  readonly #items: T[] = [];
  readonly #readers: { resolve(value: T): void; reject(error: unknown): void }[] = [];
  #failure: { error: unknown } | undefined;
  push(item: T): void {
    if (this.#failure !== undefined) return;
    const reader = this.#readers.shift();
    if (reader !== undefined) reader.resolve(item);
    else this.#items.push(item);
  }
  next(signal?: AbortSignal): Promise<T> {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift() as T);
    if (this.#failure !== undefined) return Promise.reject(this.#failure.error as Error);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      const reader = {
        resolve: (value: T) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject: (error: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error as Error);
        },
      };
      const onAbort = () => {
        const index = this.#readers.indexOf(reader);
        if (index >= 0) this.#readers.splice(index, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#readers.push(reader);
    });
  }
  fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = { error };
    for (const reader of this.#readers.splice(0)) reader.reject(error);
  }
}

/** Keeps `id` in `cancellable` while its latest `capabilities` carry `cancel` (an update without `capabilities` changes nothing). */
function trackCancel(cancellable: Set<string>, id: unknown, capabilities: unknown): void {
  if (capabilities === undefined || typeof id !== "string") return;
  if ((capabilities as { cancel?: unknown } | null)?.cancel != null) cancellable.add(id);
  else cancellable.delete(id);
}

/** See the module comment. */
export class ActiveSessionV2 {
  readonly #sender: Sender;
  readonly #response: Json & { sessionId: string };
  readonly #queue = new UpdateQueue<ActiveSessionMessage>();
  readonly #unroute: () => void;
  readonly #stopOnClose: (() => void) | undefined;
  #configOptions: unknown;
  #background: unknown[] | undefined;
  readonly #cancellableToolCalls = new Set<string>();
  readonly #cancellableTerminals = new Set<string>();

  private constructor(sender: Sender, routes: SessionRoutes, response: Json & { sessionId: string }, closed: AbortSignal | undefined) {
    this.#sender = sender;
    this.#response = response;
    this.#configOptions = response.configOptions ?? undefined;
    this.#unroute = routes.add(response.sessionId, (notification) => this.#route(notification));
    if (closed !== undefined) {
      const onClose = () => this.#queue.fail(closed.reason ?? new Error("ACP connection closed"));
      if (closed.aborted) onClose();
      else {
        closed.addEventListener("abort", onClose, { once: true });
        this.#stopOnClose = () => closed.removeEventListener("abort", onClose);
      }
    }
  }
  /** @internal `closed`: the connection's signal (reads fail once it closed). */
  static create(sender: Sender, routes: SessionRoutes, response: Json & { sessionId: string }, closed?: AbortSignal): ActiveSessionV2 {
    return new ActiveSessionV2(sender, routes, response, closed);
  }
  /** The session's id. */
  get sessionId(): string {
    return this.#response.sessionId;
  }
  /** The session's config options: `session/new`'s, then each `config_option_update`'s or `setConfigOption` answer's full list. */
  get configOptions(): unknown {
    return this.#configOptions;
  }
  /** The `_meta` `session/new` answered. */
  get meta(): unknown {
    return this.#response._meta;
  }
  /** The `background` list of the latest `state_update`; undefined while background work is not reported (or the last snapshot had no list). */
  get background(): unknown[] | undefined {
    return this.#background;
  }
  /** The whole `session/new` answer. */
  get newSessionResponse(): Json & { sessionId: string } {
    return this.#response;
  }
  /** Whether a permission request's `subject` names work in the latest `background` list (a tool call, or a command's tool call or terminal). */
  isForBackgroundWork(request: { subject?: unknown }): boolean {
    const background = this.#background;
    const subject = request.subject as Json | undefined;
    if (background === undefined || subject === undefined || subject === null) return false;
    let toolCallId: unknown;
    let terminalId: unknown;
    if (guards.RequestPermissionSubject.isToolCall(subject)) toolCallId = (subject["toolCall"] as Json | undefined)?.["toolCallId"];
    else if (guards.RequestPermissionSubject.isCommand(subject)) {
      toolCallId = subject["toolCallId"];
      terminalId = subject["terminalId"];
    }
    return background.some((work) => (toolCallId != null && guards.BackgroundWork.isToolCall(work) && work["toolCallId"] === toolCallId) || (terminalId != null && guards.BackgroundWork.isTerminal(work) && work["terminalId"] === terminalId));
  }
  /** Whether the tool call advertises `capabilities.cancel` now. */
  canCancelToolCall(toolCallId: string): boolean {
    return this.#cancellableToolCalls.has(toolCallId);
  }
  /** Whether the terminal advertises `capabilities.cancel` now. */
  canCancelTerminal(terminalId: string): boolean {
    return this.#cancellableTerminals.has(terminalId);
  }
  /** `tool_call/cancel`; rejects with a `TypeError`, sending nothing, unless the tool call advertises `cancel`. */
  cancelToolCall(toolCallId: string, options?: SendRequestOptions): Promise<unknown> {
    if (!this.canCancelToolCall(toolCallId)) return Promise.reject(new TypeError(`Tool call ${JSON.stringify(toolCallId)} does not advertise cancel`));
    return this.#sender.request("tool_call/cancel", { sessionId: this.sessionId, toolCallId }, requestOptions(options));
  }
  /** `terminal/cancel`; rejects with a `TypeError`, sending nothing, unless the terminal advertises `cancel`. */
  cancelTerminal(terminalId: string, options?: SendRequestOptions): Promise<unknown> {
    if (!this.canCancelTerminal(terminalId)) return Promise.reject(new TypeError(`Terminal ${JSON.stringify(terminalId)} does not advertise cancel`));
    return this.#sender.request("terminal/cancel", { sessionId: this.sessionId, terminalId }, requestOptions(options));
  }
  /** Sends `session/prompt` (a string is one text block, a block is wrapped); resolves once the agent inserted the message. An empty prompt rejects with a `TypeError`, sending nothing. */
  prompt(prompt: string | Json | Json[], options?: SendRequestOptions): Promise<unknown> {
    const blocks = typeof prompt === "string" ? [{ type: "text", text: prompt }] : Array.isArray(prompt) ? prompt : [prompt];
    if (blocks.length === 0) return Promise.reject(new TypeError("A prompt must contain at least one content block"));
    return this.#sender.request("session/prompt", { sessionId: this.sessionId, prompt: blocks }, requestOptions(options));
  }
  /** `session/set_config_option`; its answer's `configOptions` replace this session's. */
  async setConfigOption(request: Json, options?: SendRequestOptions): Promise<Json> {
    const response = (await this.#sender.request("session/set_config_option", { ...request, sessionId: this.sessionId }, requestOptions(options))) as Json;
    this.#configOptions = response["configOptions"];
    return response;
  }
  /** The next update or idle (`stop`) of this session, in arrival order; `signal` abandons this read (nothing is lost). */
  nextUpdate(signal?: AbortSignal): Promise<ActiveSessionMessage> {
    return this.#queue.next(signal);
  }
  /**
   * The agent's text up to the next idle, read from the same queue as `nextUpdate()`: a full
   * `agent_message` replaces its message's content, an `agent_message_chunk` adds to it; messages
   * in the order they first appeared, text blocks only.
   */
  async readTextUntilIdle(signal?: AbortSignal): Promise<string> {
    const order: unknown[] = [];
    const content = new Map<unknown, unknown[]>();
    const contentOf = (messageId: unknown): unknown[] => {
      let blocks = content.get(messageId);
      if (blocks === undefined) {
        blocks = [];
        order.push(messageId);
        content.set(messageId, blocks);
      }
      return blocks;
    };
    for (;;) {
      const message = await this.nextUpdate(signal);
      if (message.kind === "stop") {
        return order
          .flatMap((id) => content.get(id) ?? [])
          .filter((block) => guards.ContentBlock.isText(block))
          .map((block) => String((block as Json)["text"]))
          .join("");
      }
      const { update } = message;
      if (guards.SessionUpdate.isAgentMessage(update)) {
        contentOf(update["messageId"]);
        if (update["content"] !== undefined) content.set(update["messageId"], (update["content"] as unknown[] | null) ?? []);
      } else if (guards.SessionUpdate.isAgentMessageChunk(update)) contentOf(update["messageId"]).push(update["content"]);
    }
  }
  /** Applies what an update says of the session, then queues it. */
  #route(notification: Notification): void {
    const { update } = notification;
    if (guards.SessionUpdate.isConfigOptionUpdate(update)) this.#configOptions = update["configOptions"];
    else if (guards.SessionUpdate.isStateUpdate(update)) this.#background = !guards.StateUpdate.isCustom(update) && Array.isArray(update["background"]) ? (update["background"] as unknown[]) : undefined;
    else if (guards.SessionUpdate.isToolCallUpdate(update)) trackCancel(this.#cancellableToolCalls, update["toolCallId"], update["capabilities"]);
    else if (guards.SessionUpdate.isTerminalUpdate(update)) trackCancel(this.#cancellableTerminals, update["terminalId"], update["capabilities"]);
    const idle = guards.SessionUpdate.isStateUpdate(update) && guards.StateUpdate.isIdle(update);
    this.#queue.push(idle ? { kind: "stop", notification, update, stopReason: update["stopReason"] } : { kind: "session_update", notification, update });
  }
  /** Stops routing this session's updates here (the session stays open on the agent); reads fail after. */
  dispose(): void {
    this.#unroute();
    this.#stopOnClose?.();
    this.#queue.fail(new Error("Active session disposed"));
  }
  /** `using session = …` disposes it. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
