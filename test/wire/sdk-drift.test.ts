// Drift check against the Agent SDK's published types: every message type (and system
// subtype) that the SDK says the CLI may print on stdout must decode, not be reported as
// unknown. Reads node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts as text.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { decodeLine, isDecodeProblem } from "../../src/wire/index.js";

const sdk = readFileSync(
  fileURLToPath(new URL("../../node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts", import.meta.url)),
  "utf8",
);

/** Names in a `type X = A | B | coreTypes.C;` union. */
function unionMembers(name: string): string[] {
  const match = new RegExp(`declare type ${name} = ([^;]+);`).exec(sdk);
  if (match === null) throw new Error(`${name} not found in sdk.d.ts`);
  return (match[1] ?? "").split("|").map((part) => part.trim().replace(/^coreTypes\./, ""));
}

/** The literal `type` and `subtype` of a message type declared as an object literal. */
function literalsOf(name: string): { type: string; subtypes: string[] }[] {
  const members = new RegExp(`declare type ${name} = ([A-Za-z| ]+);`).exec(sdk);
  if (members !== null && !(members[1] ?? "").includes("{")) {
    return (members[1] ?? "").split("|").flatMap((member) => literalsOf(member.trim()));
  }
  const start = sdk.search(new RegExp(`declare type ${name} = \\{`));
  if (start === -1) throw new Error(`${name} not found as an object type`);
  const head = sdk.slice(start, start + 400);
  const type = /\n\s+type: '([^']+)'/.exec(head)?.[1];
  if (type === undefined) throw new Error(`${name} has no literal type`);
  const subtypeLine = /\n\s+subtype: ([^;\n]+);/.exec(head)?.[1] ?? "";
  const subtypes = [...subtypeLine.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
  return [{ type, subtypes }];
}

/** A line carrying every field the decoder checks for any type, so only type/subtype matter. */
function sampleLine(type: string, subtype: string | undefined): string {
  return JSON.stringify({
    type,
    ...(subtype === undefined ? {} : { subtype }),
    session_id: "s",
    uuid: "u",
    parent_tool_use_id: null,
    message: { role: type, content: [] },
    is_error: false,
    event: { type: "message_stop" },
    rate_limit_info: { status: "allowed" },
    attempt: 1,
    max_retries: 10,
    retry_delay_ms: 500,
    error_status: null,
    compact_metadata: { trigger: "auto" },
    task_id: "t",
    status: null,
    request_id: "r",
    request: { subtype: "interrupt" },
    response: { subtype: "success", request_id: "r" },
  });
}

describe("decoder against the Agent SDK's stdout message list", () => {
  const names = unionMembers("StdoutMessage").flatMap((name) =>
    name === "SDKMessage" ? unionMembers("SDKMessage") : [name],
  );
  const kinds = names.flatMap((name) => literalsOf(name).map((literal) => ({ name, ...literal })));

  it("finds the SDK's message list", () => {
    expect(kinds.length).toBeGreaterThan(40);
    expect(kinds.map((k) => k.type)).toEqual(
      expect.arrayContaining([
        "assistant",
        "user",
        "result",
        "system",
        "stream_event",
        "rate_limit_event",
        "control_request",
        "control_response",
        "control_cancel_request",
      ]),
    );
  });

  it("decodes every type and subtype without a problem", () => {
    const failures: string[] = [];
    for (const kind of kinds) {
      for (const subtype of kind.subtypes.length > 0 ? kind.subtypes : [undefined]) {
        const decoded = decodeLine(
          sampleLine(
            kind.type,
            kind.type === "control_request" || kind.type === "control_response" ? undefined : subtype,
          ),
        );
        if (isDecodeProblem(decoded)) failures.push(`${kind.name} ${kind.type}/${subtype ?? ""}: ${decoded.reason}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
