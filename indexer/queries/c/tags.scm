; C: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-c's queries/tags.scm (MIT). A prototype is no
; declaration of its own: its name is a reference to the function's definition.

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(identifier) @reference.read
(type_identifier) @reference.type
(field_identifier) @reference.read
(call_expression function: [(identifier) @name (field_expression field: (field_identifier) @name)]) @reference.call
(assignment_expression left: [(identifier) @name (field_expression field: (field_identifier) @name)]) @reference.write

(preproc_include) @ignore

; Declarations.
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.enumMember
; A typedef declares its name only: a struct defined inside it is a declaration of its own.
(type_definition declarator: (type_identifier) @name @definition.type)
(field_declaration declarator: (field_identifier) @name) @definition.field
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(translation_unit (declaration declarator: [(identifier) @name (init_declarator declarator: (identifier) @name)]) @definition.variable)

; Locals: parameters and what a function declares are its own.
(function_definition) @local.scope
(declaration declarator: (function_declarator)) @local.scope
(field_declaration declarator: (function_declarator)) @local.scope
(parameter_declaration declarator: [(identifier) @local.definition (pointer_declarator declarator: (identifier) @local.definition) (array_declarator declarator: (identifier) @local.definition)])
(compound_statement (declaration declarator: [(identifier) @local.definition (init_declarator declarator: (identifier) @local.definition) (pointer_declarator declarator: (identifier) @local.definition) (init_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition))]))
(preproc_params (identifier) @local.definition)
