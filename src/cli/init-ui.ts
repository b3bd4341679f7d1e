// The one surface `telecode init` talks to a person through: @clack/prompts when interactive,
// plain lines (and no questions at all) when run from a script.
import type { Readable, Writable } from "node:stream";
import * as prompts from "@clack/prompts";

/** A person pressed Ctrl-C or Escape at a question. */
export class InitCancelled extends Error {
  readonly code = "init.cancelled";
}

/** Set-up cannot go on; the message says what happened and what to do. */
export class InitFailed extends Error {
  readonly code = "init.failed";
}

export type SelectOption<T extends string> = { value: T; label: string; hint?: string };

export type InitUi = {
  readonly interactive: boolean;
  intro(title: string): void;
  info(message: string): void;
  success(message: string): void;
  warn(message: string): void;
  outro(message: string): void;
  text(
    message: string,
    /** `initial` is filled in (Enter accepts it); `placeholder` only shows an example. */
    options?: { initial?: string; placeholder?: string; validate?: (value: string) => string | undefined },
  ): Promise<string>;
  secret(message: string, validate?: (value: string) => string | undefined): Promise<string>;
  confirm(message: string, initial?: boolean): Promise<boolean>;
  select<T extends string>(message: string, options: SelectOption<T>[], initial: T): Promise<T>;
};

function answered<T>(value: T): Exclude<T, symbol> {
  if (prompts.isCancel(value) || typeof value === "symbol") throw new InitCancelled("cancelled");
  return value as Exclude<T, symbol>;
}

/** Questions and messages through @clack/prompts on the given streams. */
export function createPromptUi(input: Readable, output: Writable): InitUi {
  const common = { input, output };
  const check = (validate?: (value: string) => string | undefined) =>
    validate === undefined ? undefined : (value: string | undefined) => validate(value ?? "");
  return {
    interactive: true,
    intro: (title) => prompts.intro(title, common),
    info: (message) => prompts.log.info(message, common),
    success: (message) => prompts.log.success(message, common),
    warn: (message) => prompts.log.warn(message, common),
    outro: (message) => prompts.outro(message, common),
    text: async (message, options = {}) => {
      const validate = check(options.validate);
      return answered(
        await prompts.text({
          message,
          ...common,
          ...(options.initial === undefined ? {} : { initialValue: options.initial }),
          ...(options.placeholder === undefined ? {} : { placeholder: options.placeholder }),
          ...(validate === undefined ? {} : { validate }),
        }),
      );
    },
    secret: async (message, validate) => {
      const checked = check(validate);
      return answered(
        await prompts.password({ message, ...common, ...(checked === undefined ? {} : { validate: checked }) }),
      );
    },
    confirm: async (message, initial = true) =>
      answered(await prompts.confirm({ message, initialValue: initial, ...common })),
    select: async <T extends string>(message: string, options: SelectOption<T>[], initial: T): Promise<T> => {
      const choices = options.map((o) => ({
        value: o.value,
        label: o.label,
        ...(o.hint === undefined ? {} : { hint: o.hint }),
      }));
      return answered(
        await prompts.select<T>({
          message,
          options: choices as Parameters<typeof prompts.select<T>>[0]["options"],
          initialValue: initial,
          ...common,
        }),
      );
    },
  };
}

/** Plain lines for scripts; asking a question here is a programming error, so it fails loudly. */
export function createPlainUi(stdout: NodeJS.WritableStream): InitUi {
  const line = (prefix: string) => (message: string) => void stdout.write(`${prefix}${message}\n`);
  const refuse = (): Promise<never> =>
    Promise.reject(
      new InitFailed("A question came up in non-interactive mode. Pass the missing flag (see `telecode init --help`)."),
    );
  return {
    interactive: false,
    intro: line(""),
    info: line("  "),
    success: line("✓ "),
    warn: line("! "),
    outro: line(""),
    text: refuse,
    secret: refuse,
    confirm: refuse,
    select: refuse,
  };
}
