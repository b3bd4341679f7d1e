// How the person runs this Telecode from where they are, for every hint that names a command:
// `telecode` when that name on PATH is this install, `npx telecode` inside a clone of it (where
// `telecode` alone is not found), else the full path of bin/telecode.js.
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { delimiter, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export type Invocation = {
  /** The command that runs Telecode here: "telecode", "npx telecode" or "node …/bin/telecode.js". */
  command: string;
  /** The person is in a clone of Telecode, where `npm start` runs the bridge too. */
  inClone: boolean;
};

/** The directory this Telecode is installed in (the one with package.json and bin/). */
export function telecodePackageDir(): string {
  return fileURLToPath(new URL("../../", import.meta.url));
}

/** The file `path` resolves to when it exists and is executable. */
function executable(path: string): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(canonical(dir), canonical(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** `dir` is Telecode's own folder: inside this install, or a checkout of Telecode (its package.json). */
export function isTelecodeFolder(dir: string, packageDir = telecodePackageDir()): boolean {
  if (isInside(packageDir, dir)) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
    return pkg.name === "telecode";
  } catch {
    return false;
  }
}

/** The set-up command as it runs where the person is: "telecode init", "npx telecode init", … */
export function initCommand(options: { env: NodeJS.ProcessEnv; cwd: string }): string {
  return `${telecodeInvocation(options).command} init`;
}

/** How `options.cwd`'s person runs this Telecode (see the file header). Never throws. */
export function telecodeInvocation(options: { env: NodeJS.ProcessEnv; cwd: string; packageDir?: string }): Invocation {
  const packageDir = options.packageDir ?? telecodePackageDir();
  const bin = join(packageDir, "bin", "telecode.js");
  const ours = executable(bin);
  const onPath = (options.env["PATH"] ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => executable(join(dir, "telecode")))
    .find((found) => found !== undefined);
  const inClone = isInside(packageDir, options.cwd);
  if (onPath !== undefined && onPath === ours) return { command: "telecode", inClone };
  if (inClone) return { command: "npx telecode", inClone };
  return { command: `node ${bin}`, inClone };
}
