// The generated enums (src/gen, from the .proto files) under short names: a proto3 value carries
// its enum's prefix (PHASE_BRIEFING) because values share their package's scope, and the client
// reads them as Phase.BRIEFING. Values and names come only from the generated enums: no table of
// numbers or names is copied by hand.

/** The members of enum `E` whose name starts with `P`, without it. */
export type Unprefixed<E, P extends string> = {
  readonly [K in keyof E as K extends `${P}${infer S}` ? S : never]: E[K];
};

/** `e`'s members named with `prefix` (UNRECOGNIZED, which ts-proto adds, has none), without it. */
export function unprefixed<E extends Record<string, string | number>, P extends string>(e: E, prefix: P): Unprefixed<E, P> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(e)) {
    if (typeof value === "number" && name.startsWith(prefix)) out[name.slice(prefix.length)] = value;
  }
  return Object.freeze(out) as unknown as Unprefixed<E, P>;
}

/**
 * Each value's name without `prefix`, in lower case ("military" for FACTION_MILITARY): the words
 * and CSS classes that are the enum's own names. A value the enum lacks has none, and so has the
 * `*_UNSPECIFIED` one (proto3's "not set").
 */
export function lowerNames<E extends Record<string, string | number>>(e: E, prefix: string): Readonly<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const [name, value] of Object.entries(e)) {
    if (typeof value === "number" && name.startsWith(prefix) && !name.endsWith("_UNSPECIFIED")) out[value] = name.slice(prefix.length).toLowerCase();
  }
  return Object.freeze(out);
}

/** The values `lowerNames` names, ascending: every value but "not set" (the four factions, say). */
export function setValues<E extends Record<string, string | number>>(e: E, prefix: string): number[] {
  return Object.keys(lowerNames(e, prefix)).map(Number).sort((a, b) => a - b);
}
