import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { OPERATIONS_INDEX_FILE, ROOT, operationsIndex } from "./operations-index.ts";

/** `npm run docs:operations`: writes docs/operations.md from the contract and the sources. */
writeFileSync(OPERATIONS_INDEX_FILE, operationsIndex());
process.stdout.write(`wrote ${relative(ROOT, OPERATIONS_INDEX_FILE)}\n`);
