// Scenarios w–w2: an MCP server's questions (MCP elicitation). A project MCP server
// (test/support/fake-mcp/asking-server.js) asks before its tool acts; the CLI passes the question
// on as an `elicitation` control request and hands the consumer's answer to the server, which
// returns it as the tool's result: a form answered with values, and a link declined.
import { fileURLToPath } from "node:url";
import { reply } from "../fake-anthropic/index.js";
import type { Scenario } from "./scenario.js";
import { allowTool, controlRun } from "./steps.js";

const askingServer = fileURLToPath(new URL("../fake-mcp/asking-server.js", import.meta.url));

/** The project's MCP server `ops` and the setting that lets the CLI start it without asking. */
const withAskingServer = {
  ".mcp.json": `${JSON.stringify({ mcpServers: { ops: { command: process.execPath, args: [askingServer] } } })}\n`,
  ".claude/settings.json": `${JSON.stringify({ enableAllProjectMcpServers: true })}\n`,
};

const FORM = {
  message: "Where should I deploy?",
  requestedSchema: {
    type: "object",
    properties: {
      target: { type: "string", title: "Environment", enum: ["staging", "production"] },
      replicas: { type: "integer", minimum: 1, maximum: 10 },
    },
    required: ["target"],
  },
};

const LINK = {
  mode: "url",
  message: "Sign in to deploy.",
  url: "https://auth.example.com/device?code=WXYZ",
  elicitationId: "sign-in-1",
};

export const mcpScenarios: readonly Scenario[] = [
  {
    name: "w-mcp-elicitation-form",
    description:
      "an MCP server's tool asks for a form (elicitation/create with a requested schema) after its call is allowed; the CLI sends control_request elicitation (mode form, requested_schema, property_order); the consumer accepts with content, which the server returns as the tool result",
    files: withAskingServer,
    replies: [reply.tool("mcp__ops__deploy", { ask: FORM }), reply.text("Deployed to staging.")],
    runs: [
      controlRun({
        prompt: "Deploy it",
        middle: [
          allowTool(),
          {
            answer: "control_request/elicitation",
            with: () => ({ action: "accept", content: { target: "staging", replicas: 2 } }),
          },
        ],
      }),
    ],
  },
  {
    name: "w2-mcp-elicitation-link",
    description:
      "an MCP server's tool asks the person to open a link (elicitation/create in URL mode); the CLI sends control_request elicitation with mode url, url and elicitation_id; the consumer declines, and the server returns that",
    files: withAskingServer,
    replies: [reply.tool("mcp__ops__deploy", { ask: LINK }), reply.text("Not signed in, so not deployed.")],
    runs: [
      controlRun({
        prompt: "Deploy it",
        middle: [allowTool(), { answer: "control_request/elicitation", with: () => ({ action: "decline" }) }],
      }),
    ],
  },
];
