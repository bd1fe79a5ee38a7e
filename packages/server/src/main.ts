#!/usr/bin/env node
import { enableCompileCache } from "node:module";

// Node keeps each module's compiled code (and, for TypeScript, its stripped source) on disk, so a
// second start skips most of the work of loading the server's modules
// (docs/design/stack.md#startup-compile-cache). It must be on before the program's modules load.
enableCompileCache();
await import("./cli/skinmarket-program.ts");
