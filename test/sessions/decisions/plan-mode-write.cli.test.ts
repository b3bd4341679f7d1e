// The real CLI 2.1.332 in plan mode asks can_use_tool for Write and Edit with
// decision_reason_type "mode"; the policy must deny them (never allow a write before a plan
// was approved). Raw spawn, so the stdout can be recorded as our own fixture:
// TELECODE_RECORD_FIXTURES=1 npx vitest run test/sessions/decisions/plan-mode-write.cli.test.ts
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { routeToolRequest, disarmedGate, type Route } from "../../../src/policy/index.js";
import { createTranslator } from "../../../src/claude/index.js";
import { decodeLine, encodePermissionAnswer } from "../../../src/wire/index.js";
import { reply, startFakeAnthropic, type FakeAnthropic } from "../../support/fake-anthropic/index.js";
import {
  anonymizeWorkspacePaths,
  makeClaudeWorkspace,
  realClaudePath,
  type ClaudeWorkspace,
} from "../../support/claude-workspace.js";
import { controlArgs } from "../../support/recorder/steps.js";

const fixtureDir = fileURLToPath(new URL("../../fixtures/plan-mode-write/", import.meta.url));
const args = controlArgs("plan");

let api: FakeAnthropic | undefined;
let ws: ClaudeWorkspace | undefined;
afterEach(async () => {
  await api?.close();
  await ws?.cleanup();
});

it("plan mode: Write and Edit asked with decision_reason_type mode are denied and nothing is written", async () => {
  api = await startFakeAnthropic();
  ws = await makeClaudeWorkspace(api.url);
  const appJs = `${ws.cwd}/app.js`;
  writeFileSync(appJs, "console.log('v1');\n");
  api.script([
    reply.tool("Write", { file_path: `${ws.cwd}/notes.md`, content: "# Notes\n" }, "I will start by writing notes."),
    reply.tool("Edit", { file_path: appJs, old_string: "v1", new_string: "v2" }),
    reply.tool("Bash", { command: `touch ${ws.cwd}/bash.txt`, description: "Create a file" }),
    reply.text("Understood: I will present a plan first."),
  ]);

  const child = spawn(realClaudePath, args, { cwd: ws.cwd, env: ws.env, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const translator = createTranslator();
  const raw: string[] = [];
  const routes: { tool: string; reasonType: string | undefined; route: Route }[] = [];
  child.stdin.write(
    `${JSON.stringify({ type: "control_request", request_id: "init_1", request: { subtype: "initialize", hooks: null } })}\n`,
  );
  child.stdin.write(
    `${JSON.stringify({ type: "user", message: { role: "user", content: "Make app.js print v2" }, parent_tool_use_id: null, session_id: "" })}\n`,
  );
  for await (const line of createInterface({ input: child.stdout })) {
    raw.push(line);
    for (const event of translator.push(decodeLine(line))) {
      if (event.type !== "approval_requested") continue;
      const request = event.request;
      const route = routeToolRequest({
        request,
        mode: "plan",
        previewChanges: false,
        questionsEnabled: true,
        cliMode: "plan",
        unattended: false,
        planApprovedInRun: false,
        gate: disarmedGate,
      });
      routes.push({ tool: request.toolName, reasonType: request.decisionReasonType, route });
      const answer =
        route.kind === "deny"
          ? { behavior: "deny" as const, message: route.message }
          : { behavior: "deny" as const, message: "unexpected route in this test" };
      child.stdin.write(`${encodePermissionAnswer(request.requestId, answer)}\n`);
    }
    if ((JSON.parse(line) as { type?: string }).type === "result") child.stdin.end();
  }
  await exited;

  expect(
    routes.map((r) => [r.tool, r.reasonType, r.route.kind, r.route.kind === "deny" ? r.route.reason : ""]),
  ).toEqual([
    ["Write", "mode", "deny", "plan_mode"],
    ["Edit", "mode", "deny", "plan_mode"],
  ]);
  // The model read our words, and nothing changed on disk.
  const results = api.requests().flatMap((r) => r.toolResults);
  expect(results.filter((t) => t.isError && t.text.includes("You are still in plan mode"))).toHaveLength(2);
  // Bash never reaches the policy: the CLI refuses it itself in plan mode.
  expect(results.filter((t) => t.isError && t.text.startsWith("Auto mode is unavailable"))).toHaveLength(1);
  expect(existsSync(`${ws.cwd}/notes.md`)).toBe(false);
  expect(existsSync(`${ws.cwd}/bash.txt`)).toBe(false);
  expect(readFileSync(appJs, "utf8")).toBe("console.log('v1');\n");

  if (process.env["TELECODE_RECORD_FIXTURES"] === "1") {
    mkdirSync(fixtureDir, { recursive: true });
    const w = ws;
    writeFileSync(
      `${fixtureDir}plan-mode-write.stdout.jsonl`,
      raw.map((l) => anonymizeWorkspacePaths(l, w)).join("\n") + "\n",
    );
  }
});
