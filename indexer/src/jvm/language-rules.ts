// What differs between Java and Kotlin once names are extracted: the names a file sees without
// importing them, the supertype a class has when it names none, and how sure an unplaced name may
// be made by a single wildcard import. The resolver asks; java-rules.ts and kotlin-rules.ts answer.
import type { JvmLanguage } from './file-model.ts';
import type { Decl } from './symbol-table.ts';

export interface LanguageRules {
  lang: JvmLanguage;
  /** Canonical name of a type every file sees without an import (`String` → `java.lang.String`). */
  implicitType(name: string): string | undefined;
  /** Canonical name of a top-level function every file sees without an import (Kotlin's `println`). */
  implicitFunction(name: string): string | undefined;
  /** Supertype of a class that names no superclass (`java.lang.Object`, `kotlin.Any`, `java.lang.Enum`). */
  implicitSuperclass(decl: Decl): string | undefined;
  /**
   * Whether one wildcard import of an external package places a type name nothing else declares.
   * True for Java (the code compiles, so the name comes from there); Kotlin's default imports
   * reach further than any list of them, so there it stays a candidate.
   */
  wildcardPlacesForCertain: boolean;
  /** Java's primitive types (`int`), by name as written. */
  primitive(name: string): boolean;
  /** A name with no declaration that is not a reference to any symbol (Kotlin's implicit `it`). */
  implicitName(name: string): boolean;
}
