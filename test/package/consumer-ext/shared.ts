// Copied into the consumer project by test/package/consumer.test.ts (not compiled in this repo):
// two runtime-registered extensions, validated by zod through its Standard Schema interface.
import { defineExtension } from "acp-router";
import { z } from "zod";

export const echo = defineExtension({ wire: "_example.com/echo", params: z.object({ text: z.string() }), result: z.object({ text: z.string() }) });
export const progress = defineExtension({ wire: "_example.com/progress", params: z.object({ percent: z.number() }) });
