// Drift check against the Agent SDK's published types: every message type (and system
// subtype), control request subtype and control response subtype the SDK lists must decode,
// not be reported as unknown; a failure names each one the decoder does not handle. Reads
// node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts as text.
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

/** The literal `subtype` of an object type: `declare type NAME = { … subtype: 'x'; …`. */
function subtypeOf(name: string): string {
  const start = sdk.search(new RegExp(`declare type ${name} = \\{`));
  if (start === -1) throw new Error(`${name} not found as an object type`);
  const subtype = /\n\s+subtype: '([^']+)'/.exec(sdk.slice(start, start + 2000))?.[1];
  if (subtype === undefined) throw new Error(`${name} has no literal subtype`);
  return subtype;
}

/** The members of an inline union field: `response: A | B;` inside `declare type NAME = {`. */
function fieldUnion(name: string, field: string): string[] {
  const start = sdk.search(new RegExp(`declare type ${name} = \\{`));
  const match = new RegExp(`\\n\\s+${field}: ([A-Za-z| ]+);`).exec(sdk.slice(start, start + 400));
  if (start === -1 || match === null) throw new Error(`${name}.${field} not found in sdk.d.ts`);
  return (match[1] ?? "").split("|").map((part) => part.trim());
}

type Sample = { name: string; line: string };

/** "NAME: reason" for each sample the decoder reports as a problem. */
function undecodable(samples: readonly Sample[]): string[] {
  return samples.flatMap(({ name, line }) => {
    const decoded = decodeLine(line);
    return isDecodeProblem(decoded) ? [`${name}: ${decoded.reason}`] : [];
  });
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
    suggestion: "run the tests",
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
    const samples = kinds.flatMap((kind) =>
      (kind.subtypes.length > 0 ? kind.subtypes : [undefined]).map((subtype) => ({
        name: `${kind.name} ${kind.type}/${subtype ?? ""}`,
        line: sampleLine(
          kind.type,
          kind.type === "control_request" || kind.type === "control_response" ? undefined : subtype,
        ),
      })),
    );
    expect(undecodable(samples)).toEqual([]);
  });

  it("decodes every control request subtype, whichever side sends it", () => {
    const subtypes = unionMembers("SDKControlRequestInner").map(subtypeOf);
    expect(subtypes).toEqual(expect.arrayContaining(["can_use_tool", "hook_callback", "initialize", "interrupt"]));
    const samples = subtypes.map((subtype) => ({
      name: `control_request/${subtype}`,
      line: JSON.stringify({
        type: "control_request",
        request_id: "r",
        request: { subtype, tool_name: "Bash", input: {}, callback_id: "c", tool_use_id: "t" },
      }),
    }));
    expect(undecodable(samples)).toEqual([]);
  });

  it("decodes every control response subtype", () => {
    const subtypes = fieldUnion("SDKControlResponse", "response").map(subtypeOf);
    expect(subtypes).toEqual(["success", "error"]);
    const samples = subtypes.map((subtype) => ({
      name: `control_response/${subtype}`,
      line: JSON.stringify({
        type: "control_response",
        response: { subtype, request_id: "r", error: "e", response: {} },
      }),
    }));
    expect(undecodable(samples)).toEqual([]);
  });

  it("names what it cannot decode, so a new SDK type or subtype shows up by name", () => {
    expect(
      undecodable([
        { name: "SDKBrandNewMessage brand_new/", line: sampleLine("brand_new", undefined) },
        {
          name: "control_response/partial",
          line: JSON.stringify({ type: "control_response", response: { subtype: "partial", request_id: "r" } }),
        },
      ]),
    ).toEqual([
      'SDKBrandNewMessage brand_new/: unknown message type "brand_new"',
      "control_response/partial: control_response subtype is neither success nor error",
    ]);
  });
});
