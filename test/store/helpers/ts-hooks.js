// Module hooks for ts-register.js: maps "./x.js" to "./x.ts" when only the .ts exists, and
// strips types with the TypeScript compiler already in devDependencies. Test-only.
//
// Stripping takes the compiler ~0.3 s to load and then time for every file, at every spawn, so
// the output is kept in node_modules/.cache, named by a hash of the source, the compiler's
// version and this file (its options): an edited file is stripped again, an unchanged one read
// back.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath, URL } from "node:url";

const cacheDir = fileURLToPath(new URL("../../../node_modules/.cache/telecode-ts/", import.meta.url));
try {
  mkdirSync(cacheDir, { recursive: true });
} catch {
  // without a cache every file is stripped each time, as it was before
}
const require = createRequire(import.meta.url);
// The compiler itself is loaded only when some file is not in the cache (it takes ~0.3 s).
const compilerVersion = JSON.parse(readFileSync(require.resolve("typescript/package.json"), "utf8")).version;
const stripper = createHash("sha256")
  .update(compilerVersion)
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest("hex");

export async function resolve(specifier, context, next) {
  // Our sources import "./x.js" where only x.ts exists: asked first, without a failed lookup.
  if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
    const source = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(source)) return { url: source.href, format: "module", shortCircuit: true };
  }
  try {
    return await next(specifier, context);
  } catch (error) {
    if (specifier.startsWith(".") && specifier.endsWith(".js")) return next(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const source = await readFile(fileURLToPath(url), "utf8");
  const key = createHash("sha256").update(stripper).update(source).digest("hex");
  const cached = `${cacheDir}${key}.js`;
  try {
    return { format: "module", source: readFileSync(cached, "utf8"), shortCircuit: true };
  } catch {
    // not stripped yet
  }
  const { default: ts } = await import("typescript");
  const output = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      sourceMap: false,
    },
  });
  // Written whole, then renamed: a process reading it meanwhile sees no half-written file.
  const partial = `${cached}.${randomUUID()}`;
  try {
    writeFileSync(partial, output.outputText);
    renameSync(partial, cached);
  } catch {
    // a cache that cannot be written only costs time
  }
  return { format: "module", source: output.outputText, shortCircuit: true };
}
