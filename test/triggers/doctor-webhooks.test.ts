// `telecode doctor` with webhooks configured: each webhook's URL and destination, a warning
// for an address other machines can reach, and one for a secret variable that is not set.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runDoctor } from "../../src/cli/doctor.js";
import { useTempHome } from "../config/helpers.js";

const tempHome = useTempHome();

async function doctor(config: string, env: Record<string, string> = {}): Promise<string> {
  const t = tempHome();
  t.mkdir("code/app");
  t.writeConfig(`[telegram]\nallowed_user_ids = [111]\n[projects.app]\npath = "~/code/app"\n${config}`);
  let out = "";
  const stdout = new PassThrough();
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  await runDoctor(
    [],
    { stdout, stderr: new PassThrough(), env: { HOME: t.home, TELECODE_CLAUDE_PATH: `${t.home}/no-claude`, ...env } },
    { cwd: t.home, platform: "linux" },
  );
  return out;
}

const line = (out: string, label: string): string =>
  out.split("\n").find((l) => l.slice(2).startsWith(`${label} `)) ?? `(no line for ${label})`;

const HOOKS = `
[[webhooks]]
id = "github-push"
path = "/hooks/github"
auth = "hmac-sha256"
secret_env = "GITHUB_WEBHOOK_SECRET"
event = ["push", "pull_request"]
prompt = "Review {{ref}}"

[[webhooks]]
id = "deploy"
path = "/hooks/deploy"
auth = "bearer"
secret_env = "DEPLOY_TOKEN"
prompt = "Check the deploy."
chat_id = -100200
`;

describe("telecode doctor with webhooks", () => {
  it("lists each webhook's URL and warns about a secret variable that is not set", async () => {
    const out = await doctor(HOOKS, { GITHUB_WEBHOOK_SECRET: "s3cret-value-for-github" });
    expect(line(out, "webhook server")).toMatch(/^✓ webhook server +listens on 127\.0\.0\.1:8765 \(this machine only/);
    expect(line(out, "webhook github-push")).toMatch(
      /^✓ webhook github-push +http:\/\/127\.0\.0\.1:8765\/hooks\/github \(hmac-sha256, events push, pull_request\) → project app, chat 111$/,
    );
    expect(line(out, "webhook deploy")).toMatch(
      /^! webhook deploy +http:\/\/127\.0\.0\.1:8765\/hooks\/deploy \(bearer\) → project app, chat -100200$/,
    );
    expect(out).toContain("DEPLOY_TOKEN is not set here, and Telecode will not start without it");
    expect(out).toContain("fix: set DEPLOY_TOKEN in the environment Telecode runs in (for a service, in its unit)");
    expect(out).not.toContain("s3cret-value-for-github");
  });

  it("warns about an address other machines can reach", async () => {
    const out = await doctor(`[webhook_server]\nlisten = "0.0.0.0:9000"\n${HOOKS}`, {
      GITHUB_WEBHOOK_SECRET: "x",
      DEPLOY_TOKEN: "y",
    });
    expect(line(out, "webhook server")).toMatch(
      /^! webhook server +listens on 0\.0\.0\.0:9000, which other machines can reach/,
    );
    expect(line(out, "webhook deploy")).toMatch(/^✓ /);
  });

  it("says nothing about webhooks when none is configured", async () => {
    expect(await doctor("")).not.toContain("webhook");
  });
});
