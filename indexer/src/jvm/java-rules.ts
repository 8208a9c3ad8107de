// Java's side of resolution: java.lang is imported implicitly, classes extend java.lang.Object
// (enums java.lang.Enum, records java.lang.Record), a wildcard import places a name for certain.
import { JAVA_PRIMITIVES, javaLangType } from './jvm-builtins.ts';
import type { LanguageRules } from './language-rules.ts';

export const javaRules: LanguageRules = {
  lang: 'java',
  implicitType: javaLangType,
  implicitFunction: () => undefined,
  implicitSuperclass: (decl) => {
    if (decl.kind === 'enum') return 'java.lang.Enum';
    if (decl.def.nodeType === 'record_declaration') return 'java.lang.Record';
    return decl.qname === 'java.lang.Object' ? undefined : 'java.lang.Object';
  },
  wildcardPlacesForCertain: true,
  primitive: (name) => JAVA_PRIMITIVES.has(name),
  implicitName: () => false,
};
