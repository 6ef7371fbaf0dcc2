// `acp-router inspect report`: the HTML page as a person sees it in headless Chromium (system `chromium`, no network).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemProgram } from "../support/system.ts";
import { converse, fixture, inspectCommand, runCommand, scratch, tsNode } from "./support.ts";

/** The system Chromium from PATH: without it the suite is skipped with the install command (a failure under CI=true). */
const chromiumBin = systemProgram("chromium");

const prompt = { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } };

describe("acp-router inspect report <trace.ndjson> -o <report.html>, in a real browser", chromiumBin.suite, () => {
  let browser: Browser;
  let page: Page;
  const outside: string[] = [];

  beforeAll(async () => {
    const dir = scratch();
    const trace = join(dir, "trace.ndjson");
    const html = join(dir, "report.html");
    await converse(inspectCommand(["--record", trace, "--summary", join(dir, "s.txt")], tsNode(fixture("scripted-agent.ts"), "update-after-answer")), [
      { line: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }), awaitAnswer: 0 },
      { line: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/workspace/demo", mcpServers: [] } }), awaitAnswer: 1 },
      { line: JSON.stringify(prompt), awaitAnswer: 2 },
    ]);
    const made = await runCommand(tsNode(fixture("run-inspect.ts"), "report", trace, "-o", html));
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: `acp-router inspect report: 8 messages, 1 violation → ${html}\n` });
    expect(readFileSync(html, "utf8")).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    browser = await chromium.launch({ executablePath: chromiumBin.path as string, args: ["--no-sandbox"] });
    page = await browser.newPage();
    await page.route("**/*", (route) => {
      if (route.request().url().startsWith("file:")) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    await page.goto(pathToFileURL(html).href);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const visibleRows = () => page.locator("#messages tbody tr:visible");

  it("shows one row per message, with its direction, method and pairing, and loads nothing from the network", async () => {
    expect(await visibleRows().count()).toBe(8);
    expect(await page.locator("#shown").textContent()).toBe("8 of 8 messages");
    const first = await page.locator("#m-0").innerText();
    expect(first).toContain("client → agent");
    expect(first).toContain("initialize");
    expect(first).toMatch(/→ #1 \d+\.\d\d ms/);
    expect(outside).toEqual([]);
  });

  it("highlights the violation, names its requirement and links it to the spec line", async () => {
    const item = page.locator("#violations li.violation");
    expect(await item.count()).toBe(1);
    expect(await item.innerText()).toContain("ACP-PROMPT-001 (MUST) update-after-turn by the agent");
    expect(await item.locator("a.spec").getAttribute("href")).toBe("https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v1/prompt-turn.mdx#L217");
    const row = page.locator("#messages tr.violation");
    expect(await row.innerText()).toContain("✗ ACP-PROMPT-001 update-after-turn");
    expect(await row.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(253, 232, 232)");
  });

  it("filters by method, direction, session and violations", async () => {
    await page.selectOption("#f-method", "session/prompt");
    expect(await visibleRows().allInnerTexts()).toHaveLength(2);
    expect(await page.locator("#shown").textContent()).toBe("2 of 8 messages");
    await page.selectOption("#f-method", "");
    await page.selectOption("#f-dir", "client");
    expect(await visibleRows().count()).toBe(3);
    await page.selectOption("#f-dir", "");
    await page.selectOption("#f-session", "s1");
    expect(await visibleRows().count()).toBe(4);
    await page.selectOption("#f-session", "");
    await page.check("#f-violations");
    const only = await visibleRows().allInnerTexts();
    expect(only).toHaveLength(1);
    expect(only[0]).toContain("session/update");
    await page.uncheck("#f-violations");
    expect(await visibleRows().count()).toBe(8);
  });

  it("keeps the JSON collapsed until the row is opened", async () => {
    const pre = page.locator("#m-6 pre");
    expect(await pre.isVisible()).toBe(false);
    await page.locator("#m-6 summary").click();
    expect(await pre.isVisible()).toBe(true);
    expect(await pre.innerText()).toContain('"stopReason": "end_turn"');
  });

  it("draws a timeline for the session, with the prompt as a bar linking to its row", async () => {
    const track = page.locator('#timeline .session[data-session="s1"]');
    expect(await track.locator(".name").innerText()).toBe("s1");
    const bar = track.locator('a.bar[href="#m-4"]');
    expect(await bar.getAttribute("title")).toMatch(/^session\/prompt #4 \d+\.\d ms$/);
  });
});

describe("acp-router inspect report on a Rust conductor trace of a chain, in a real browser", chromiumBin.suite, () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const html = join(scratch(), "chain.html");
    const made = await runCommand(tsNode(fixture("run-inspect.ts"), "report", fixture("rust-trace-chain.jsons"), "-o", html));
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: `acp-router inspect report: 18 messages, 0 violations → ${html}\n` });
    browser = await chromium.launch({ executablePath: chromiumBin.path as string, args: ["--no-sandbox"] });
    page = await browser.newPage();
    await page.goto(pathToFileURL(html).href);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("shows every message with its hop and trace id, and filters by trace id", async () => {
    const rows = page.locator("#messages tbody tr:visible");
    expect(await rows.count()).toBe(18);
    expect(await page.locator("#m-10").innerText()).toMatch(/Agent → Proxy\(0\)\s+request\s+"a-1"\s+tools\/call \[mcp\]/);
    expect(await page.locator("#m-8 td.trace").innerText()).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    await page.selectOption("#f-trace", "4bf92f3577b34da6a3ce929d0e0e4736");
    expect(await rows.allInnerTexts()).toHaveLength(2);
    expect(await page.locator("#shown").textContent()).toBe("2 of 18 messages");
  });
});
