// A failed read or write (a full disk, a closed terminal) as a person reads it. Pure.

const IO_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  ENOTDIR: "a part of the path is a file, not a folder",
  EISDIR: "it is a directory",
  ELOOP: "too many symbolic links in the path",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many files open",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EFBIG: "the file is too large",
  EIO: "an input/output error",
  EBADF: "the file is not open",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

/** "ENOSPC: no space left on the device"; a code without words as it is; else the message. */
export function ioErrorWords(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return error instanceof Error ? error.message : String(error);
  const words = IO_ERRORS[code];
  return words === undefined ? code : `${code}: ${words}`;
}

/** Whether `error` is a disk (or the user's quota) out of space: trying again will not help until some is freed. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}
