// Which `claude` a recording runs: a path as given (its own --version), and where a version that
// npm's @anthropic-ai/claude-code does not have yet may be found (the Agent SDK's binary).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PINNED_CLI_VERSION } from "../../wire/fixtures.js";
import { CliNotUsable, resolveCli, sdkPlatformPackage } from "./resolve-cli.js";

const PINNED_CLI = fileURLToPath(new URL("../../../node_modules/.bin/claude", import.meta.url));

describe("the CLI a recording runs", () => {
  it("is a path as given, with the version the binary prints", async () => {
    const cli = await resolveCli(PINNED_CLI, () => undefined);
    expect(cli.version).toBe(PINNED_CLI_VERSION);
    await expect(resolveCli("/nonexistent/claude", () => undefined)).rejects.toBeInstanceOf(CliNotUsable);
  });

  it("looks for a 2.1.N that npm lacks in the Agent SDK 0.3.N's package for this platform", () => {
    expect(sdkPlatformPackage("2.1.336", "linux", "x64")).toBe("@anthropic-ai/claude-agent-sdk-linux-x64@0.3.336");
    expect(sdkPlatformPackage("2.1.400", "darwin", "arm64")).toBe(
      "@anthropic-ai/claude-agent-sdk-darwin-arm64@0.3.400",
    );
    // Outside the pairing seen so far: no guess (npm's answer stands).
    expect(sdkPlatformPackage("2.2.1", "linux", "x64")).toBeUndefined();
    expect(sdkPlatformPackage("latest", "linux", "x64")).toBeUndefined();
  });
});
