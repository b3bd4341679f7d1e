// Telling content blocks apart: a block of a type Telecode reads is returned as its own typed
// shape (the decoder checked its fields), any other type as undefined. Pure.
import type { WireContentBlock, WireReadBlock } from "./types.js";

const READ_TYPES: ReadonlySet<string> = new Set<WireReadBlock["type"]>(["text", "thinking", "tool_use", "tool_result"]);

/** The block narrowed by its `type`, or undefined for a type Telecode does not read (image, …). */
export function readBlock(block: WireContentBlock): WireReadBlock | undefined {
  return READ_TYPES.has(block.type) ? (block as WireReadBlock) : undefined;
}
