/** Checks a value against the small part of JSON Schema the client fixtures use; returns what does not fit, [] when all does. */

type Schema = {
  type?: "object" | "array" | "string" | "boolean" | "integer";
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
};

const typeOf = (v: unknown) => (Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : v === null ? "null" : typeof v);

export function schemaErrors(schema: Schema, value: unknown, at = "$"): string[] {
  if (schema.oneOf) {
    const fits = schema.oneOf.filter((s) => schemaErrors(s, value, at).length === 0).length;
    return fits === 1 ? [] : [`${at}: fits ${fits} of the ${schema.oneOf.length} alternatives, not one`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  if (schema.type && typeOf(value) !== schema.type) return [`${at}: a ${typeOf(value)}, not a ${schema.type}`];
  const errors: string[] = [];
  if (schema.type === "array" && schema.items) (value as unknown[]).forEach((v, i) => errors.push(...schemaErrors(schema.items!, v, `${at}[${i}]`)));
  if (schema.type === "object") {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in obj)) errors.push(`${at}: "${key}" is missing`);
    for (const [key, v] of Object.entries(obj)) {
      const own = schema.properties?.[key];
      if (own) errors.push(...schemaErrors(own, v, `${at}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: "${key}" is not allowed`);
      else if (typeof schema.additionalProperties === "object") errors.push(...schemaErrors(schema.additionalProperties, v, `${at}.${key}`));
    }
  }
  return errors;
}
