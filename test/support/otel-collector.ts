// A local OpenTelemetry collector for tests: takes the OTLP/HTTP JSON log exports Claude Code
// sends when its telemetry is on (CLAUDE_CODE_ENABLE_TELEMETRY=1 and the OTEL_* variables of
// `otelEnv`), and reads back its `tool_decision` events: Claude Code's own record of each
// permission decision and who made it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ToolDecision = { toolName: string; toolUseId: string; decision: string; source: string };

export type OtelCollector = {
  /** The environment that points Claude Code's log exports here (with the variables' names for env_allow). */
  env: Readonly<Record<string, string>>;
  /** Every tool_decision event received so far, in order. */
  toolDecisions(): ToolDecision[];
  close(): Promise<void>;
};

type OtlpValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean };
type OtlpLogRecord = { body?: OtlpValue; attributes?: { key: string; value: OtlpValue }[] };
type OtlpLogs = { resourceLogs?: { scopeLogs?: { logRecords?: OtlpLogRecord[] }[] }[] };

function toolDecisionOf(record: OtlpLogRecord): ToolDecision | undefined {
  const attribute = (key: string): string =>
    String(record.attributes?.find((a) => a.key === key)?.value.stringValue ?? "");
  if (attribute("event.name") !== "tool_decision") return undefined;
  return {
    toolName: attribute("tool_name"),
    toolUseId: attribute("tool_use_id"),
    decision: attribute("decision"),
    source: attribute("source"),
  };
}

export async function startOtelCollector(): Promise<OtelCollector> {
  const decisions: ToolDecision[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      if (request.url === "/v1/logs") {
        const logs = JSON.parse(body) as OtlpLogs;
        for (const resource of logs.resourceLogs ?? [])
          for (const scope of resource.scopeLogs ?? [])
            for (const record of scope.logRecords ?? []) {
              const decision = toolDecisionOf(record);
              if (decision !== undefined) decisions.push(decision);
            }
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_METRICS_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_LOGS_EXPORT_INTERVAL: "200",
    },
    toolDecisions: () => [...decisions],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
