// What the CLI wrote down of a session in its transcript, as the engine reads it and Continue
// decides by it.

/**
 * "nothing": no transcript with a message (`--resume` fails: "No conversation found");
 * "conversation": its conversation, but not the message asked about (or none was asked about);
 * "message": its conversation, with that message in it.
 */
export type WrittenDown = "nothing" | "conversation" | "message";
