// Types for the commonmark-spec package (the CommonMark spec's examples; it ships none).
declare module "commonmark-spec" {
  const spec: {
    readonly text: string;
    readonly tests: readonly { markdown: string; html: string; section: string; number: number }[];
  };
  export default spec;
}
