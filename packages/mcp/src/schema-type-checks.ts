// Compile-time checks that a zod schema and the TypeScript interface it publishes describe the same
// objects (used by the plan and manifest schemas). Types only: nothing here exists at run time.

export type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
/** Compiles only when T is true. */
export type Check<T extends true> = T;
