// What a side question got back (see the engine's side-question.ts).

/** A side question's answer: the model's words, or Claude Code's for why none came (`failed`). */
export type SideAnswer = { text: string; failed: boolean };

/** A side question asked before and its answer: what a follow-up is asked after, oldest first. */
export type SideExchange = { question: string; response: string };
