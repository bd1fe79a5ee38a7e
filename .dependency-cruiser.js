// Which part of the server may import which (`npm run lint:deps`, part of `npm run check`). The
// floors and their reasons are in packages/server/src/domain/README.md and docs/design/architecture.md#the-domains-floors.

const SRC = "^packages/server/src/";
const DOMAIN = `${SRC}domain/`;

/**
 * The domain's folders from the lowest floor up. A folder imports the kernel (the files directly
 * in `domain/`) and folders on lower floors, never a folder on its own floor or above: a rule two
 * folders need lives on a floor below both.
 */
const FLOORS = [
  ["platform", "catalog", "liquidity", "sessions", "users"],
  ["wallet", "tokens"],
  ["market"],
  ["goods"],
  ["platform-accounts"],
  ["trades"],
  ["buy-orders"],
  ["listings", "accounts", "sandbox"],
  ["events"],
  ["webhooks", "simulation", "staff"],
];

const floorRules = FLOORS.flatMap((floor, level) =>
  floor.map((folder) => {
    const notBelow = FLOORS.slice(level)
      .flat()
      .filter((other) => other !== folder);
    return {
      name: `floor-${folder}`,
      comment: `domain/${folder} (floor ${level + 1}) imports only the kernel and lower floors`,
      severity: "error",
      from: { path: `${DOMAIN}${folder}/` },
      to: { path: `${DOMAIN}(${notBelow.join("|")})/` },
    };
  }),
);

export default {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "No two modules of the server import each other, directly or around a circle, type imports included.",
      severity: "error",
      from: { path: SRC },
      // The one exception: the context every verb receives carries the game platform, and the
      // port's methods take that context back. Both sides are types (erased at run time), and the
      // port belongs in `domain/platform/` beside the trade-URL rules rather than in the kernel.
      to: {
        circular: true,
        via: { pathNot: `${DOMAIN}(context|platform/game-platform)\\.ts$` },
      },
    },
    {
      name: "kernel-imports-no-folder",
      comment:
        "The files directly in domain/ (context, clock, result, transaction, audit, ...) are the floor everything stands on.",
      severity: "error",
      from: { path: `${DOMAIN}[^/]+\\.ts$`, pathNot: `${DOMAIN}context\\.ts$` },
      to: { path: `${DOMAIN}[^/]+/` },
    },
    {
      name: "context-names-only-the-port",
      comment:
        "The context names the game platform's port (a type: the port's methods take the context back) and no other folder.",
      severity: "error",
      from: { path: `${DOMAIN}context\\.ts$` },
      to: {
        path: `${DOMAIN}[^/]+/`,
        pathNot: `${DOMAIN}platform/game-platform\\.ts$`,
      },
    },
    {
      name: "context-port-as-type",
      comment: "The context imports the port as a type only.",
      severity: "error",
      from: { path: `${DOMAIN}context\\.ts$` },
      to: { path: `${DOMAIN}platform/game-platform\\.ts$`, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "domain-stays-inside",
      comment:
        "The domain imports no transport, driver, job, CLI, demo or adapter of the server; of storage only the schema's types.",
      severity: "error",
      from: { path: DOMAIN },
      to: {
        path: SRC,
        pathNot: [`${DOMAIN}`, `${SRC}storage/schema\\.ts$`],
      },
    },
    {
      name: "domain-no-framework-or-driver",
      comment:
        "The domain reaches storage and transport through its context and ports, never a framework or driver.",
      severity: "error",
      from: { path: DOMAIN },
      to: {
        path: "(^|/)node_modules/(fastify|@fastify/[^/]+|find-my-way|pg|pg-[^/]+|@electric-sql/[^/]+|ioredis|rate-limiter-flexible|prom-client|pino|pino-pretty|ws|commander|@skinmarket/client)/",
      },
    },
    {
      name: "domain-no-network-server",
      comment: "The domain serves no HTTP or sockets itself.",
      severity: "error",
      from: { path: DOMAIN },
      to: { dependencyTypes: ["core"], path: "^(node:)?(http|https|http2|dgram|tls)$" },
    },
    ...floorRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
