; C++: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-cpp's queries/tags.scm (MIT). A prototype is no
; declaration of its own: its name is a reference to the function's definition; a member function
; declared in its class and defined outside it is two declarations (Class.f and the definition).

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(identifier) @reference.read
(type_identifier) @reference.type
(field_identifier) @reference.read
(namespace_identifier) @reference.read
(call_expression function: [(identifier) @name (field_expression field: (field_identifier) @name) (qualified_identifier name: (identifier) @name) (template_function name: (identifier) @name)]) @reference.call
(new_expression type: [(type_identifier) @name (qualified_identifier name: (type_identifier) @name)]) @reference.new
(base_class_clause [(type_identifier) @name (qualified_identifier name: (type_identifier) @name) (template_type name: (type_identifier) @name)]) @reference.inherit
(assignment_expression left: [(identifier) @name (field_expression field: (field_identifier) @name)]) @reference.write

(preproc_include) @ignore
(using_declaration) @ignore

; Declarations.
(function_definition declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name])) @definition.function
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (identifier) @name))) @definition.method
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(field_declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)
(field_declaration declarator: (field_identifier) @name) @definition.field
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.enumMember
; A typedef declares its name only: a struct defined inside it is a declaration of its own.
(type_definition declarator: (type_identifier) @name @definition.type)
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: (namespace_identifier) @name) @definition.namespace
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(translation_unit (declaration declarator: [(identifier) @name (init_declarator declarator: (identifier) @name)]) @definition.variable)

; Locals: parameters and what a function declares are its own.
(function_definition) @local.scope
(declaration declarator: (function_declarator)) @local.scope
(field_declaration declarator: (function_declarator)) @local.scope
(lambda_expression) @local.scope
(template_declaration) @local.scope
(parameter_declaration declarator: [(identifier) @local.definition (pointer_declarator declarator: (identifier) @local.definition) (reference_declarator (identifier) @local.definition) (array_declarator declarator: (identifier) @local.definition)])
(optional_parameter_declaration declarator: [(identifier) @local.definition (reference_declarator (identifier) @local.definition)])
(compound_statement (declaration declarator: [(identifier) @local.definition (init_declarator declarator: (identifier) @local.definition) (pointer_declarator declarator: (identifier) @local.definition) (init_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition)) (init_declarator declarator: (reference_declarator (identifier) @local.definition))]))
(for_range_loop declarator: (identifier) @local.definition)
(type_parameter_declaration (type_identifier) @local.definition)
(preproc_params (identifier) @local.definition)
