// Every scenario the recorder knows, one per recording in test/golden/fixtures (a … t4, the
// u-series and the w-series), and how a command line picks among them.
import type { Scenario } from "./scenario.js";
import { basicScenarios } from "./scenarios-basic.js";
import { controlScenarios } from "./scenarios-control.js";
import { failureScenarios } from "./scenarios-failures.js";
import { featureScenarios } from "./scenarios-features.js";
import { mcpScenarios } from "./scenarios-mcp.js";
import { scheduleScenarios } from "./scenarios-schedule.js";

export const SCENARIOS: readonly Scenario[] = [
  ...basicScenarios,
  ...controlScenarios,
  ...featureScenarios,
  ...mcpScenarios,
  ...failureScenarios,
  ...scheduleScenarios,
];

export class UnknownScenario extends Error {
  readonly code = "recorder.unknown_scenario";
}

/**
 * The scenarios to record: `only` names them (slow or not); otherwise every scenario that is not
 * slow, plus the slow ones when `slow` is set. Throws UnknownScenario for a name it does not know.
 */
export function selectScenarios(options: { slow: boolean; only: readonly string[] }): Scenario[] {
  if (options.only.length > 0) {
    const unknown = options.only.filter((name) => !SCENARIOS.some((s) => s.name === name));
    if (unknown.length > 0)
      throw new UnknownScenario(
        `No scenario named ${unknown.join(", ")}. Known: ${SCENARIOS.map((s) => s.name).join(", ")}.`,
      );
    return SCENARIOS.filter((s) => options.only.includes(s.name));
  }
  return SCENARIOS.filter((s) => options.slow || s.slow !== true);
}
