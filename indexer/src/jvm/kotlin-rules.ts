// Kotlin's side of resolution: the default imports (kotlin.*, kotlin.collections.*, …, java.lang.*),
// classes extend kotlin.Any (enums kotlin.Enum), lambdas' implicit `it`.
import { kotlinDefaultFunction, kotlinDefaultType } from './jvm-builtins.ts';
import type { LanguageRules } from './language-rules.ts';

export const kotlinRules: LanguageRules = {
  lang: 'kotlin',
  implicitType: kotlinDefaultType,
  implicitFunction: kotlinDefaultFunction,
  implicitSuperclass: (decl) => (decl.kind === 'enum' ? 'kotlin.Enum' : decl.kind === 'interface' ? undefined : 'kotlin.Any'),
  wildcardPlacesForCertain: false,
  primitive: () => false,
  implicitName: (name) => name === 'it',
};
