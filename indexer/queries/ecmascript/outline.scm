; Outline patterns shared by the JavaScript, TypeScript and TSX grammars. Every pattern here must
; compile against all three grammars (the tests check it); patterns that use node types or fields
; only one grammar has go to ../javascript/outline.scm or ../typescript/outline.scm, which are
; appended after this file.
;
; Captures: @definition.<SymbolKind> on the declaration node, @name on its name node.
;
; Precedence: when several patterns capture the same (declaration, name) pair, the pattern that
; comes last in the concatenated query wins. Refining patterns (constructor, getter, setter,
; function- or class-valued variables) therefore follow the generic patterns they refine, and a
; grammar-specific file can override a shared pattern.
;
; Scope: this is an outline (an IDE's structure view), not a symbol table. Variables are listed
; only at module level (TypeScript adds namespace bodies), which is encoded by anchoring their
; patterns to the enclosing statement; functions and classes are listed wherever they occur, so
; nested function and class declarations still show up under their enclosing function.

; ---------------------------------------------------------------------------------------------
; Module-level variables: const is a constant, let/var a variable. Simple destructuring declares
; one outline entry per bound name, all sharing the declarator's range.

(program
  [
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.constant)
    (lexical_declaration
      kind: "let"
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.variable)
  ])

; export_statement only occurs at module (or namespace) level, so it needs no further anchoring.
(export_statement
  declaration: [
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.constant)
    (lexical_declaration
      kind: "let"
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.variable)
  ])

; Methods of an object literal that initialises a module-level variable (`const api = { get() {} }`).
; Object literals elsewhere (call arguments, return values) are expressions, not declarations.
(program
  [
    (lexical_declaration
      (variable_declarator
        value: (object
          [
            (method_definition name: (_) @name) @definition.method
            (pair
              key: (_) @name
              value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
          ])))
    (variable_declaration
      (variable_declarator
        value: (object
          [
            (method_definition name: (_) @name) @definition.method
            (pair
              key: (_) @name
              value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
          ])))
  ])

(export_statement
  declaration: [
    (lexical_declaration
      (variable_declarator
        value: (object
          [
            (method_definition name: (_) @name) @definition.method
            (pair
              key: (_) @name
              value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
          ])))
    (variable_declaration
      (variable_declarator
        value: (object
          [
            (method_definition name: (_) @name) @definition.method
            (pair
              key: (_) @name
              value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
          ])))
  ])

; ---------------------------------------------------------------------------------------------
; Functions, anywhere (nested functions belong in the outline). A variable whose value is a
; function or class is that function or class; these follow the variable patterns to refine them.

(function_declaration name: (identifier) @name) @definition.function

(generator_function_declaration name: (identifier) @name) @definition.function

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; CommonJS style: `exports.run = function () {}`, `Foo.prototype.bar = () => {}` at module level.
(program
  (expression_statement
    (assignment_expression
      left: [
        (identifier) @name
        (member_expression property: (property_identifier) @name)
      ]
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (#not-eq? @name "exports"))

; Anonymous default exports are named `default`, as the TypeScript compiler names them.
(export_statement
  "default" @name
  value: [(function_expression !name) (generator_function !name) (arrow_function)]) @definition.function

(export_statement
  "default" @name
  value: (class !name)) @definition.class

; ---------------------------------------------------------------------------------------------
; Classes and their methods. Fields differ between the grammars (field_definition/property vs
; public_field_definition/name) and live in the per-grammar files.

(class_declaration name: (_) @name) @definition.class

(class_body (method_definition name: (_) @name) @definition.method)

(class_body
  (method_definition name: (property_identifier) @name) @definition.constructor
  (#eq? @name "constructor"))

(class_body (method_definition "get" name: (_) @name) @definition.getter)

(class_body (method_definition "set" name: (_) @name) @definition.setter)
