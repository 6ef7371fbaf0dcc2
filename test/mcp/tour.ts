/** The transcript of examples/mcp-client.ts's tour (MCP_TOUR) after its first line: what the declaration line says, then each prompt and answer. */
export const mcpTourTranscript = (declared: string, refusal: string): string[] => [
  declared,
  "> tools",
  "  agent: tools: echo, count, wait",
  '> call echo {"text":"hello over ACP"}',
  "  agent: result: hello over ACP",
  '> call count {"n":3}',
  "  agent: progress 1/3 step 1",
  "  agent: progress 2/3 step 2",
  "  agent: progress 3/3 step 3",
  "  agent: result: counted to 3",
  "> call nope {}",
  "  agent: MCP error -32602: Tool nope not found",
  "> ask nobody",
  `  agent: refused: ${refusal}`,
];
