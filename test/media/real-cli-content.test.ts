// What the real CLI 2.1.332 does with a user line made of content blocks: an image and a PDF
// reach the Messages API as blocks. Raw spawn in control mode, so the exchange can be recorded:
// TELECODE_RECORD_FIXTURES=1 npx vitest run test/media/real-cli-content.test.ts
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { encodeUserMessage, type WireUserContentBlock } from "../../src/wire/index.js";
import { reply, startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic/index.js";
import {
  anonymizeWorkspacePaths,
  makeClaudeWorkspace,
  realClaudePath,
  type ClaudeWorkspace,
} from "../support/claude-workspace.js";
import { makePdf, makePng } from "./samples.js";
import { controlArgs } from "../support/recorder/steps.js";

const fixtureDir = fileURLToPath(new URL("../fixtures/user-content-blocks/", import.meta.url));
const cliArgs = controlArgs();

let api: FakeAnthropic | undefined;
let ws: ClaudeWorkspace | undefined;
afterEach(async () => {
  await api?.close();
  await ws?.cleanup();
});

async function runTurn(w: ClaudeWorkspace, blocks: readonly WireUserContentBlock[]): Promise<string[]> {
  const child = spawn(realClaudePath, cliArgs, { cwd: w.cwd, env: w.env, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.stdin.write(
    `${JSON.stringify({ type: "control_request", request_id: "init_1", request: { subtype: "initialize", hooks: null } })}\n`,
  );
  child.stdin.write(encodeUserMessage(blocks));
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if ((JSON.parse(line) as { type?: string }).type === "result") child.stdin.end();
  }
  expect(await exited).toBe(0);
  return lines;
}

/** The content blocks of the last user message the CLI sent to the API, without its system reminders. */
function sentBlocks(body: Record<string, unknown>): Record<string, unknown>[] {
  const messages = body["messages"] as { role: string; content: Record<string, unknown>[] | string }[];
  const last = messages.filter((m) => m.role === "user").at(-1)!;
  const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
  return blocks.filter((b) => !(b["type"] === "text" && String(b["text"]).startsWith("<system-reminder>")));
}

function record(name: string, w: ClaudeWorkspace, lines: readonly string[], body: Record<string, unknown>): void {
  if (process.env["TELECODE_RECORD_FIXTURES"] !== "1") return;
  mkdirSync(fixtureDir, { recursive: true });
  writeFileSync(`${fixtureDir}${name}.stdout.jsonl`, lines.map((l) => anonymizeWorkspacePaths(l, w)).join("\n") + "\n");
  const request = { messages_last_user_content: sentBlocks(body) };
  writeFileSync(
    `${fixtureDir}${name}.api-user-content.json`,
    anonymizeWorkspacePaths(JSON.stringify(request, null, 2), w) + "\n",
  );
}

it("a text + image user line reaches the Messages API as an image block, bytes unchanged", async () => {
  api = await startFakeAnthropic({ replies: [reply.text("A grey square.")] });
  ws = await makeClaudeWorkspace(api.url);
  const png = makePng(4, 3).toString("base64");
  const lines = await runTurn(ws, [
    { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
    { type: "text", text: "What is in this picture?" },
  ]);
  const [request] = api.requests();
  const blocks = sentBlocks(request!.body);
  expect(blocks[0]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: png } });
  // The CLI keeps the words and adds where it saved its own copy of the image.
  expect(blocks.slice(1).map((b) => String(b["text"]))).toEqual([
    "What is in this picture?\n",
    expect.stringMatching(/^\[Image: source: .*\.png\]$/),
  ]);
  expect(lines.some((l) => l.includes('"result":"A grey square."'))).toBe(true);
  record("image", ws, lines, request!.body);
});

it("a PDF document block reaches the Messages API unchanged, title included", async () => {
  api = await startFakeAnthropic({ replies: [reply.text("It says hello.")] });
  ws = await makeClaudeWorkspace(api.url);
  const pdf = makePdf("hello pdf").toString("base64");
  const document = {
    type: "document",
    source: { type: "base64", media_type: "application/pdf", data: pdf },
    title: "hello.pdf",
  } as const;
  const lines = await runTurn(ws, [document, { type: "text", text: "What does this PDF say?" }]);
  const [request] = api.requests();
  expect(sentBlocks(request!.body)).toEqual([document, { type: "text", text: "What does this PDF say?" }]);
  expect(lines.some((l) => l.includes('"result":"It says hello."'))).toBe(true);
  record("pdf", ws, lines, request!.body);
});
