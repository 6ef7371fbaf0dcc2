/**
 * Turns what happens on a client connection into a readable transcript:
 * streamed text as it arrives, tool calls and their updates, plans, mode
 * changes, permission questions and stop reasons. Plain text, one event
 * per line (streamed text excepted), so it reads well in a terminal and in
 * a log.
 */
import type { PlanEntry, RequestPermissionOutcome, RequestPermissionRequest, SessionConfigOption, SessionNotification, StopReason, ToolCallContent } from "../src/index.ts";

/** Where the transcript goes: `process.stdout`, or anything with a `write(text)` method. */
export interface TextSink {
  write(text: string): unknown;
}

export interface Transcript {
  /** A line of the client's own (headers, notes). */
  note(text: string): void;
  /** The user's prompt, as sent. */
  user(text: string): void;
  /** A `session/update` from the agent. */
  update(notification: SessionNotification): void;
  /** A permission question and how it was answered (`by`: who answered). */
  permission(request: RequestPermissionRequest, outcome: RequestPermissionOutcome, by: string): void;
  /** The permission question alone, before a person answers it. */
  question(request: RequestPermissionRequest): void;
  /** The prompt's answer. */
  stop(reason: StopReason): void;
}

const STATUS_MARK = { pending: "[ ]", in_progress: "[~]", completed: "[x]" } as const;

export function createTranscript(sink: TextSink): Transcript {
  // True while streamed text has been written without its closing newline.
  let midLine = false;
  const toolTitles = new Map<string, string>();

  const text = (chunk: string) => {
    if (chunk === "") return;
    sink.write(chunk);
    midLine = !chunk.endsWith("\n");
  };
  const line = (content: string) => {
    sink.write(`${midLine ? "\n" : ""}${content}\n`);
    midLine = false;
  };

  return {
    note: (content) => line(content),
    user: (content) => line(`\n> ${content}`),
    update({ update }) {
      switch (update.sessionUpdate) {
        case "agent_message_chunk":
          if (update.content.type === "text") text(update.content.text);
          else line(`  (${update.content.type} content)`);
          return;
        case "agent_thought_chunk":
          if (update.content.type === "text") line(`  (thinking) ${update.content.text.trimEnd()}`);
          return;
        case "user_message_chunk":
          // Sent when a session is loaded: the user's side of the replayed history.
          line(`> ${update.content.type === "text" ? update.content.text : `(${update.content.type})`}`);
          return;
        case "tool_call":
          toolTitles.set(update.toolCallId, update.title);
          line(`  tool ${update.toolCallId}: ${update.title} (${update.kind ?? "other"}, ${update.status ?? "pending"})${contentText(update.content)}`);
          return;
        case "tool_call_update": {
          if (update.title) toolTitles.set(update.toolCallId, update.title);
          const title = toolTitles.get(update.toolCallId) ?? "";
          line(`  tool ${update.toolCallId}: ${title} -> ${update.status ?? "updated"}${contentText(update.content ?? undefined)}`);
          return;
        }
        case "plan":
          line(`  plan: ${planText(update.entries)}`);
          return;
        case "current_mode_update":
          line(`  mode is now ${update.currentModeId}`);
          return;
        case "available_commands_update":
          line(`  commands: ${update.availableCommands.map((c) => `/${c.name}`).join(" ") || "(none)"}`);
          return;
        case "session_info_update":
          if (update.title) line(`  session title: ${update.title}`);
          return;
        case "usage_update": {
          const share = update.size > 0 ? ` (${((100 * update.used) / update.size).toFixed(1)}%)` : "";
          line(`  usage: ${update.used} of ${update.size} tokens${share}${update.cost ? `, cost ${update.cost.amount} ${update.cost.currency}` : ""}`);
          return;
        }
        case "config_option_update":
          line(`  config: ${configText(update.configOptions)}`);
          return;
        default:
          line(`  (${update.sessionUpdate})`);
      }
    },
    question(request) {
      line(`  ? permission for "${request.toolCall.title ?? request.toolCall.toolCallId}": ${request.options.map((o) => `${o.optionId} (${o.name})`).join(" | ")}`);
    },
    permission(request, outcome, by) {
      const answer = outcome.outcome === "selected" ? outcome.optionId : "cancelled";
      line(`  ? permission for "${request.toolCall.title ?? request.toolCall.toolCallId}": ${request.options.map((o) => o.optionId).join(" | ")} -> ${answer} (${by})`);
    },
    stop: (reason) => line(`[stop: ${reason}]`),
  };
}

/** `Effort=low · Web search=true` */
export function configText(options: readonly SessionConfigOption[]): string {
  return options.map((o) => `${o.name}=${String(o.currentValue)}`).join(" · ") || "(none)";
}

/** `[x] Understand · [~] Sketch · [ ] Report` */
export function planText(entries: readonly PlanEntry[]): string {
  return entries.map((e) => `${STATUS_MARK[e.status]} ${e.content}`).join(" · ") || "(empty)";
}

function contentText(content: readonly ToolCallContent[] | undefined): string {
  if (!content || content.length === 0) return "";
  const parts = content.map((c) => {
    if (c.type === "content") return c.content.type === "text" ? firstLine(c.content.text) : `(${c.content.type})`;
    if (c.type === "diff") return `(diff of ${c.path})`;
    return `(terminal ${c.terminalId})`;
  });
  return `: ${parts.join("; ")}`;
}

/** A one-line summary: the text itself if it is one line, else its line count. */
function firstLine(text: string): string {
  const lines = text.trimEnd().split("\n");
  return lines.length === 1 ? (lines[0] ?? "") : `${lines.length} lines of text`;
}
