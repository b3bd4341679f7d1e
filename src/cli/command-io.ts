// What every command runs against: its output streams and environment. Its own module so the
// commands and the entry that dispatches to them do not import each other.

export type CommandIo = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
};
