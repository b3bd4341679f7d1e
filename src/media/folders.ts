// Folders Telecode writes into inside a project: created on demand, kept out of git by a
// `.gitignore` of their own, and checked to stay inside the project after links are resolved.
import { constants } from "node:fs";
import { mkdir, open, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ioErrorWords } from "../domain/index.js";
import { accept, MediaError, refuse, type MediaRefusal, type MediaResult } from "./errors.js";

/** Whether `path` is `root` or below it (both absolute, already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** `path` relative to `root` with `/`, or `path` itself when it is not below `root`. */
export function displayPath(root: string, path: string): string {
  return isInside(root, path) ? relative(root, path).split(sep).join("/") : path;
}

/**
 * Creates `dir` (relative to `projectRoot`, or absolute) with a `.gitignore` that ignores
 * everything in it, and returns its real path. A folder configured inside the project must
 * still be inside it once symbolic links are resolved; otherwise this refuses. A project whose
 * own folder is gone is refused too: making the folder would put an empty project in its place.
 */
export async function ensureOwnFolder(projectRoot: string, dir: string): Promise<MediaResult<string>> {
  const wanted = resolve(projectRoot, dir);
  if (!(await isFolder(projectRoot))) return projectMissing(projectRoot, "nothing was saved");
  try {
    await mkdir(wanted, { recursive: true });
    const [realRoot, realDir] = await Promise.all([realpath(projectRoot), realpath(wanted)]);
    if (isInside(resolve(projectRoot), wanted) && !isInside(realRoot, realDir)) {
      return refuse(
        "media.symlink",
        `${displayPath(projectRoot, wanted)} leads outside the project through a symbolic link, so nothing was saved there.`,
        "Remove the link, or set files.uploads_dir to a real folder.",
      );
    }
    await writeGitIgnore(realDir);
    return accept(realDir);
  } catch (cause) {
    throw new MediaError("media.io_failed", `Could not prepare the folder ${wanted} (${ioErrorWords(cause)}).`, {
      cause,
    });
  }
}

/** The refusal for a project whose folder is gone: "The project's folder … does not exist, so `outcome`." */
export function projectMissing(projectRoot: string, outcome: string): { ok: false; refusal: MediaRefusal } {
  return refuse(
    "media.project_missing",
    `The project's folder ${projectRoot} does not exist, so ${outcome}.`,
    "On the computer running Telecode, put the folder back, or point the project's path in the config at where it is now.",
  );
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Writes `.gitignore` = `*` unless one is there already (never through a link). */
async function writeGitIgnore(dir: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  let handle;
  try {
    handle = await open(join(dir, ".gitignore"), flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  try {
    await handle.writeFile("# Written by Telecode: files here stay out of git.\n*\n");
  } finally {
    await handle.close();
  }
}
