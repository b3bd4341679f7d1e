// A temp HOME with a config file in it, for config tests; removed after each test.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { useTempDirs } from "../support/temp-dirs.js";

export type TempHome = {
  home: string;
  /** Writes `text` to HOME/.config/telecode/config.toml (or `path`) with mode 0600; returns the path. */
  writeConfig(text: string, path?: string): string;
  /** Creates a directory under HOME and returns its path. */
  mkdir(relative: string): string;
};

export function useTempHome(): () => TempHome {
  const tempDir = useTempDirs("home");
  return () => {
    const home = tempDir();
    return {
      home,
      writeConfig(text, path = join(home, ".config", "telecode", "config.toml")) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
        chmodSync(path, 0o600);
        return path;
      },
      mkdir(relative) {
        const dir = join(home, relative);
        mkdirSync(dir, { recursive: true });
        return dir;
      },
    };
  };
}

export const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0";

/** Runs `fn` and returns what it threw; fails the test when it does not throw. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}
