import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "packages/server/catalog/", "coverage/", "packages/web/dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "ExportDefaultDeclaration", message: "Use named exports." },
      ],
    },
  },
  {
    // The domain is readable without the framework: no HTTP, no database drivers.
    files: ["packages/server/src/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["fastify", "@fastify/*", "pg", "@electric-sql/*", "node:http", "ioredis"],
              message: "The domain reaches storage and transport through its context.",
            },
            {
              group: ["**/http/**", "**/storage/pglite*", "**/storage/postgres*"],
              message: "The domain does not import transports or drivers.",
            },
            {
              group: ["**/platform/sandbox/**"],
              message: "The domain reaches the platform through ctx.platform (the GamePlatform port).",
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by server and client and depends on nothing of ours.
    files: ["packages/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@skinmarket/*"], message: "The contract depends on nothing of ours." }] },
      ],
    },
  },
);
