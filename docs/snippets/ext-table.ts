// my-table.ts: the ACP table plus one registered extension method.
import { methods as acp, schemaSource, type MethodRow } from "../../method-table.ts";

export { schemaSource };

export const methods: readonly MethodRow[] = [
  ...acp,
  {
    wire: "_example.com/echo",
    side: "agent",
    kind: "request",
    callback: "echo",
    params: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    result: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    layer: "app",
    extension: true,
  },
];
