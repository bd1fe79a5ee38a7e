import {
  SerializerSelector,
  type Serializer,
  type SerializerFactory,
} from "@fastify/fast-json-stringify-compiler";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import type { ValidateFunction } from "ajv";
import { createValidatorCompiler } from "./validation.ts";

/**
 * Route schemas compiled when the route is first asked, not when the app is built. Fastify
 * compiles every route's request validators (Ajv) and response serializers (fast-json-stringify)
 * before it listens, in one task: on this service's few hundred schemas, about a second with the
 * event loop held, and memory for routes a deployment never serves. Each is compiled the first time
 * its route needs it (a few milliseconds, once) and kept (docs/design/performance.md#no-stall-at-start-or-during-a-rebuild).
 * `compileAll()` compiles what is left, so that a test can show that every route's schemas compile.
 */
export class RouteSchemaCompilers {
  readonly #pending = new Set<() => void>();
  readonly #validators = createValidatorCompiler();

  readonly validatorCompiler: FastifySchemaCompiler<FastifySchema> = (route) => {
    const compiled = this.#onFirstUse(() => this.#validators(route) as ValidateFunction);
    const validate = ((data: unknown) => {
      const validator = compiled();
      const valid = validator(data);
      validate.errors = validator.errors;
      return valid;
    }) as ValidateFunction;
    return validate;
  };

  readonly serializerFactory: SerializerFactory = (externalSchemas, options) => {
    const build = SerializerSelector()(externalSchemas, options);
    return (route) => {
      const compiled = this.#onFirstUse<Serializer>(() => build(route));
      return (document: unknown) => compiled()(document);
    };
  };

  /** `build`'s answer, made on the first call and kept; pending until then. */
  #onFirstUse<F>(build: () => F): () => F {
    let built: F | undefined;
    const compile = () => {
      if (built === undefined) {
        built = build();
        this.#pending.delete(compile);
      }
      return built;
    };
    this.#pending.add(compile);
    return compile;
  }

  /** Schemas of routes not asked yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Compiles every schema not compiled yet; throws what the first one that fails to compile throws. */
  compileAll(): void {
    for (const compile of [...this.#pending]) compile();
  }
}
