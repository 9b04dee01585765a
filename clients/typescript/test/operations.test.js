// One method per operation of the spec: an operation added to openapi/openapi.json fails this
// test (and test/types.ts, once src/schema.d.ts is regenerated) until the Client has its method.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Client, EVENTS } from "../src/index.js";

const spec = JSON.parse(
  readFileSync(new URL("../../../openapi/openapi.json", import.meta.url), "utf8"),
);
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** @param {string} id */
const camelCase = (id) => id.replace(/[_-]+([a-zA-Z0-9])/g, (_, letter) => letter.toUpperCase());

test("every operation of the spec has a method named after its operationId", () => {
  /** @type {string[]} */
  const operations = Object.values(spec.paths).flatMap((item) =>
    METHODS.filter((method) => method in item).map((method) => camelCase(item[method].operationId)),
  );
  assert.ok(operations.length >= 20);
  const api = new Client({ baseUrl: "" });
  const missing = operations.filter(
    (name) =>
      typeof (/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (api))[name]) !==
      "function",
  );
  assert.deepEqual(missing, [], `operations without a method: ${missing.join(", ")}`);
});

test("the stream's events are the spec's GameEvent", () => {
  const union = spec.components.schemas.GameEvent;
  assert.deepEqual([...EVENTS].sort(), Object.keys(union.discriminator.mapping).sort());
  const named = union.oneOf.map((/** @type {{ $ref: string }} */ ref) => {
    const schema = spec.components.schemas[ref.$ref.split("/").at(-1) ?? ""];
    return schema.properties.event.enum[0];
  });
  assert.deepEqual([...EVENTS].sort(), named.sort());
});
