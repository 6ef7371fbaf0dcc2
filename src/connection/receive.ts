/**
 * What the reader delivers, first (DESIGN §4.1-4.3): a line that did not
 * parse, a line too long, a batch (rejected whole, or each element handled
 * and the answers written as one array), or one message, classified once and
 * its row looked up once: a response settles its call, a request or a
 * notification goes on (`deliver.ts`), anything else is answered as
 * `jsonrpc/unusable.ts` says.
 */
import { classify, isResponseShaped, type MessageKind } from "../jsonrpc/classify.ts";
import { ParseFailure } from "../jsonrpc/parse.ts";
import { oversizedAnswer, unusableAnswer } from "../jsonrpc/unusable.ts";
import { rejectUnusable } from "./answer.ts";
import type { BatchSink } from "./call.ts";
import { processCall } from "./deliver.ts";
import type { AnyRow, Body, Pipeline } from "./pipeline-state.ts";
import { report } from "./report.ts";

/**
 * Handles one parsed line: a message, or a batch of them. Transports that parse messages
 * themselves (`TransportReceiver.message`) hand their value here, a `ParseFailure` included
 * (answered as an unparsable line), with its `kind` when they classified it.
 */
export function processValue<P>(inbound: Pipeline<P>, value: unknown, kind?: MessageKind): void {
  if (value instanceof ParseFailure) {
    report(inbound, "parse_error", `unparsable line: ${value.reason}`);
    rejectUnusable(inbound, unusableAnswer(value, undefined), undefined);
  } else if (Array.isArray(value)) processBatch(inbound, value);
  else processMessage(inbound, value, undefined, kind);
}

/** Answers a line too long to read: `-32700`, `id: null`. */
export function rejectOversized<P>(inbound: Pipeline<P>, length: number, maxBytes: number): void {
  report(inbound, "oversized_line", `skipped a line of at least ${length} characters (maxMessageBytes ${maxBytes})`);
  rejectUnusable(inbound, oversizedAnswer(maxBytes), undefined);
}

/** A batch (JSON-RPC 2.0 §6): rejected whole, or each element handled and the answers written as one array. */
function processBatch<P>(inbound: Pipeline<P>, items: unknown[]): void {
  if (!inbound.acceptBatches || items.length === 0) {
    report(inbound, "batch", items.length === 0 ? "empty batch rejected" : `batch of ${items.length} rejected (batches: "reject")`);
    rejectUnusable(inbound, unusableAnswer(items, undefined), undefined);
    return;
  }
  const answers: string[] = [];
  let open = 1;
  const sink: BatchSink = {
    expect() {
      open++;
    },
    add(answer) {
      answers.push(answer);
      sink.done();
    },
    done() {
      if (--open === 0 && answers.length > 0) inbound.host.send(`[${answers.join(",")}]\n`);
    },
  };
  for (const item of items) processMessage(inbound, item, sink);
  sink.done();
}

/** Handles one message: classified once (here, unless its transport did), its row looked up once. */
function processMessage<P>(inbound: Pipeline<P>, value: unknown, batch: BatchSink | undefined, kind: MessageKind = classify(value)): void {
  // Response-shaped bodies (having `result` or `error`) are never answered, whatever else is wrong.
  const responseShaped = kind === "unknown" && isResponseShaped(value);
  const body = value as Body;
  if (kind === "request" || kind === "notification") {
    const row = inbound.host.protocol.inboundRow(inbound.host.side, kind, body.method as string) as AnyRow | undefined;
    processCall(inbound, body, kind, row, batch);
  } else if (kind === "response") inbound.host.answerPending(body);
  else if (kind === "unidentified_request" || !responseShaped) {
    batch?.expect();
    if (kind === "unknown") report(inbound, "unknown_message", "message is neither a request, a notification nor a response");
    rejectUnusable(inbound, unusableAnswer(value, kind), batch);
  } else if (!inbound.host.rejectInvalidResponse(body)) {
    // Never answered; with both result and error, the pending call it names failed above (JSON-RPC 2.0 §5).
    report(inbound, "unknown_response", "response-shaped message without a usable id dropped", { id: body.id ?? null });
  }
}
