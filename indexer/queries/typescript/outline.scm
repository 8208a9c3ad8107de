; Outline patterns for the TypeScript and TSX grammars, appended after ../ecmascript/outline.scm
; (see that file for the capture conventions, precedence and scope rules). Everything here uses
; node types or fields the JavaScript grammar lacks.

; ---------------------------------------------------------------------------------------------
; Type-level declarations.

(interface_declaration name: (_) @name) @definition.interface

(type_alias_declaration name: (_) @name) @definition.type

(enum_declaration name: (_) @name) @definition.enum

; A member without initialiser is just its name node, which is then also the declaration.
(enum_body name: (_) @name @definition.enumMember)

(enum_body (enum_assignment name: (_) @name) @definition.enumMember)

(abstract_class_declaration name: (_) @name) @definition.class

; Overload signatures and `declare function`.
(function_signature name: (_) @name) @definition.function

; ---------------------------------------------------------------------------------------------
; Namespaces and modules. `namespace A.B {}` and the legacy `module A {}` are namespaces; a module
; named by a string (`declare module "pkg" {}`) and `declare global {}` are module declarations.

(internal_module name: (_) @name) @definition.namespace

(module name: [(identifier) (nested_identifier)] @name) @definition.namespace

(module name: (string) @name) @definition.module

(ambient_declaration "global" @name (statement_block)) @definition.module

; Variables directly in a namespace or module body are members of it, so they are outlined like
; module-level ones (exported members are already covered by the shared export_statement pattern).
(internal_module
  body: (statement_block
    [
      (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)
      (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
    ]))

(module
  body: (statement_block
    [
      (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)
      (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
    ]))

; `declare const x: T;` (anywhere ambient declarations may appear) and `declare global { var g: T }`.
(ambient_declaration
  [
    (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)
    (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name) @definition.variable)
    (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
    (statement_block
      [
        (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)
        (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name) @definition.variable)
        (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
      ])
  ])

; ---------------------------------------------------------------------------------------------
; Class members the JavaScript grammar does not have.

(class_body (public_field_definition name: (_) @name) @definition.property)

; Method overload signatures (`m(): void;`) and abstract members.
(class_body (method_signature name: (_) @name) @definition.method)

(class_body
  (method_signature name: (property_identifier) @name) @definition.constructor
  (#eq? @name "constructor"))

(class_body (abstract_method_signature name: (_) @name) @definition.method)

(class_body (abstract_method_signature "get" name: (_) @name) @definition.getter)

(class_body (abstract_method_signature "set" name: (_) @name) @definition.setter)

; ---------------------------------------------------------------------------------------------
; Members of interfaces and of object-type aliases (`type Point = { x: number }`). Object types
; nested deeper (a member's type, a parameter's type) are anonymous and stay out of the outline.

(interface_body (property_signature name: (_) @name) @definition.property)

(interface_body (method_signature name: (_) @name) @definition.method)

(interface_body (method_signature "get" name: (_) @name) @definition.getter)

(interface_body (method_signature "set" name: (_) @name) @definition.setter)

(type_alias_declaration
  value: (object_type (property_signature name: (_) @name) @definition.property))

(type_alias_declaration
  value: (object_type (method_signature name: (_) @name) @definition.method))

(type_alias_declaration
  value: (object_type (method_signature "get" name: (_) @name) @definition.getter))

(type_alias_declaration
  value: (object_type (method_signature "set" name: (_) @name) @definition.setter))
