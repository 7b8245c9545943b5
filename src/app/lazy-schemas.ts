/**
 * The routes' schemas compiled when a route first needs them instead of at start: compiling the
 * validators (ajv) and serialisers (fast-json-stringify) of every route was a quarter of a
 * start's CPU, and most routes are never called by a given instance. A route's first request
 * pays its compile once (a few milliseconds); the compiled code is the one Fastify's default
 * compilers make, so answers and refusals are the same.
 */
import {
  SerializerSelector, type Serializer, type SerializerFactory,
} from "@fastify/fast-json-stringify-compiler";
import type { FastifyServerOptions } from "fastify";

/**
 * What a compile yields: a validator (data, and where the data sits in the request) or a
 * serialiser (the answer); ajv's validators also keep their last errors.
 */
type Compiled = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown };

/** A stand-in that compiles on its first call, then hands every call to the compiled function. */
function onFirstCall(compile: () => Compiled): Compiled {
  let compiled: Compiled | undefined;
  const stand = (data: unknown, context?: unknown) => {
    compiled ??= compile();
    const answer = compiled(data, context);
    stand.errors = compiled.errors;
    return answer;
  };
  stand.errors = undefined as unknown;
  return stand;
}

/**
 * ajv's compile deferred through ajv's own hook rather than a validator compiler of ours, because
 * Fastify does not lowercase the header schemas for a custom compiler. `schemaEnv` marks an ajv
 * function: Fastify then passes the request as the parent of the validated part, so that ajv may
 * replace it (coercion, defaults) as before.
 */
function deferCompile(ajv: { compile: (schema: object) => unknown }): void {
  const compile = ajv.compile.bind(ajv);
  ajv.compile = (schema: object) =>
    Object.assign(onFirstCall(() => compile(schema) as Compiled), { schemaEnv: true });
}

/** Fastify's default serialiser compiler (fast-json-stringify), each built on first use. */
const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const compile = SerializerSelector()(externalSchemas, serializerOptions);
  return (route) => onFirstCall(() => compile(route) as Compiled) as Serializer;
};

/** A listener's Fastify options for schemas compiled on first use, with its ajv options. */
export function schemasOnFirstUse(customOptions: Record<string, unknown> = {}) {
  return {
    ajv: { customOptions, onCreate: deferCompile },
    schemaController: { compilersFactory: { buildSerializer } },
  } satisfies Pick<FastifyServerOptions, "ajv" | "schemaController">;
}
