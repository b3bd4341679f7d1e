// Test helper: reads a recorded CLI transcript through the real decoder and translator, so
// policy tests run on the requests and events the real CLI produced.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createTranslator } from "../../src/claude/index.js";
import type { ApprovalRequest, TelecodeEvent } from "../../src/domain/events.js";
import { decodeLine } from "../../src/wire/index.js";

const sharedDir = fileURLToPath(new URL("../golden/fixtures/claude-code-2.1.332/", import.meta.url));
const ownDir = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** Shared fixture by scenario name ("e-plan-exit-allow"), or our own as "own:plan-mode-write/plan-mode-write". */
export function fixtureLines(name: string): string[] {
  const path = name.startsWith("own:") ? `${ownDir}${name.slice(4)}.stdout.jsonl` : `${sharedDir}${name}.stdout.jsonl`;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
}

/** Every event the translator makes of the fixture, in order. */
export function fixtureEvents(name: string): TelecodeEvent[] {
  const t = createTranslator();
  const out: TelecodeEvent[] = [];
  for (const line of fixtureLines(name)) out.push(...t.push(decodeLine(line)));
  return out;
}

/** The can_use_tool requests of a fixture, as the engine hands them to decide(). */
export function fixtureRequests(name: string): ApprovalRequest[] {
  return fixtureEvents(name).flatMap((e) => (e.type === "approval_requested" ? [e.request] : []));
}

/** The first request for `toolName`; throws when the fixture has none (a broken test setup). */
export function fixtureRequest(name: string, toolName: string): ApprovalRequest {
  const r = fixtureRequests(name).find((x) => x.toolName === toolName);
  if (!r) throw new Error(`fixture ${name} has no ${toolName} request`);
  return r;
}
