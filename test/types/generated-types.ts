/**
 * Type tests for the generated code. Never run: `tsc --noEmit` checks them
 * (this folder is in tsconfig's "include"). Every `@ts-expect-error` must
 * sit on a line that really is a type error, or tsc fails; the lines without
 * one must compile. test/codegen/type-tests.test.ts checks both.
 */
import type { AgentHandler, AgentPeer, ClientContext, ClientHandler, ContentBlock, PromptResponse, ReadTextFileRequest, RequestPermissionOutcome, SessionUpdate } from "../../src/generated/index.ts";

/** `switch (update.sessionUpdate)` narrows to the variant's own fields. */
export function sessionUpdateNarrows(update: SessionUpdate): void {
  switch (update.sessionUpdate) {
    case "agent_message_chunk": {
      const content: ContentBlock = update.content;
      // @ts-expect-error a message chunk has no plan entries
      const entries = update.entries;
      void [content, entries];
      break;
    }
    case "plan": {
      const count: number = update.entries.length;
      // @ts-expect-error a plan has no content
      const content = update.content;
      void [count, content];
      break;
    }
  }
}

/** `switch (block.type)` narrows a content block. */
export function contentBlockNarrows(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      // @ts-expect-error an image block has no text
      return block.text;
    default:
      return block.type;
  }
}

/** A permission outcome narrows on `outcome`. */
export function permissionOutcomeNarrows(outcome: RequestPermissionOutcome): string {
  if (outcome.outcome === "selected") return outcome.optionId;
  // @ts-expect-error a cancelled outcome has no optionId
  return outcome.optionId;
}

/** Peer proxies are typed by the table: params and result types come from the row. */
export function peerCallsAreTyped(peer: AgentPeer): Promise<PromptResponse>[] {
  return [
    peer.prompt({ sessionId: "sess-1", prompt: [{ type: "text", text: "hi" }] }),
    // @ts-expect-error sessionId is a string
    peer.prompt({ sessionId: 1, prompt: [] }),
  ];
}

/** Every ungated app row is a required handler method; gated ones are optional. */
export function handlersRequireUngatedMethods(complete: AgentHandler): AgentHandler[] {
  const { prompt: _prompt, ...withoutPrompt } = complete;
  const { loadSession: _loadSession, ...withoutLoadSession } = complete;
  return [
    withoutLoadSession,
    // @ts-expect-error prompt is required
    withoutPrompt,
  ];
}

/** `readTextFile` is gated by `fs.readTextFile`, so a client may leave it out, and callers must check for it. */
export function readTextFileIsOptional(params: ReadTextFileRequest, ctx: ClientContext): ClientHandler {
  const minimal: ClientHandler = {
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    sessionUpdate: () => undefined,
  };
  // @ts-expect-error readTextFile may be undefined
  void minimal.readTextFile(params, ctx);
  void minimal.readTextFile?.(params, ctx);
  return minimal;
}
