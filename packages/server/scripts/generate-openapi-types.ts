import { writeFile } from "node:fs/promises";
import { appOpenApiDocument } from "./app-openapi-document.ts";
import { OPENAPI_TYPES_FILE, openApiTypesSource } from "./openapi-types.ts";

/** `npm run openapi:types`: writes the typed-client types of the OpenAPI document (openapi-types.ts). */
await writeFile(OPENAPI_TYPES_FILE, await openApiTypesSource(await appOpenApiDocument()));
console.log(`wrote ${OPENAPI_TYPES_FILE}`);
