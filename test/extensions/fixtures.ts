/**
 * Extension definitions shared by the extension tests: zod schemas (zod 4
 * implements Standard Schema v1), a type guard, and an async Standard Schema.
 */
import { z } from "zod";
import { defineExtension, type StandardSchemaV1 } from "../../src/index.ts";

/** `_example.com/echo`: `{ text }` → `{ text, length }`; `length` is computed by the result schema's transform. */
export const echo = defineExtension({
  wire: "_example.com/echo",
  params: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
  result: z.object({ text: z.string() }).transform((r) => ({ ...r, length: r.text.length })),
});

/** `_example.com/progress`: a session-scoped notification. */
export const progress = defineExtension({
  wire: "_example.com/progress",
  params: z.object({ sessionId: z.string(), percent: z.number().min(0).max(100) }),
});

/** The params `_example.com/sum` takes, checked by the type guard below. */
export interface SumParams {
  readonly numbers: readonly number[];
}

/** A plain type guard: `{ numbers: number[] }`. */
export function isSumParams(value: unknown): value is SumParams {
  const numbers = (value as { numbers?: unknown } | null)?.numbers;
  return Array.isArray(numbers) && numbers.every((n) => typeof n === "number");
}

/** `_example.com/sum`: validated by type guards only. */
export const sum = defineExtension({
  wire: "_example.com/sum",
  params: isSumParams,
  result: (value: unknown): value is { total: number } => typeof (value as { total?: unknown } | null)?.total === "number",
});

/** A hand-written Standard Schema whose `validate` is async: a non-empty string `id`. */
export const asyncIdSchema: StandardSchemaV1<{ id: string }> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: async (value) => {
      await Promise.resolve();
      const id = (value as { id?: unknown } | null)?.id;
      if (typeof id === "string" && id !== "") return { value: { id } };
      return { issues: [{ message: "must be a non-empty string", path: [{ key: "id" }] }] };
    },
  },
};

/** `_example.com/lookup`: async params validation; the handler throws `RpcError.resourceNotFound` for unknown ids. */
export const lookup = defineExtension({ wire: "_example.com/lookup", params: asyncIdSchema, result: z.object({ name: z.string() }) });

/** `_example.com/secret`: gated by `_meta["example.com"].secret` of the handling side. */
export const secret = defineExtension({
  wire: "_example.com/secret",
  params: z.object({}),
  result: z.object({ ok: z.boolean() }),
  capability: ["_meta", "example.com", "secret"],
});
