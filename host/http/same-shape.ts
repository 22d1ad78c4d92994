/**
 * Compile-time checks that a response schema and the type its body is written from are one
 * shape: `Assert<SameShape<z.output<typeof Schema>, WireType>>` fails to compile when a field is
 * missing on either side, or differs in type, nullability or optionality.
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type Assert<T extends true> = T;
