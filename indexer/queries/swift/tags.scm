; Swift: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-swift's queries/tags.scm (MIT). An extension
; declares nothing of its own name: it is a reference to the type it extends.

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(simple_identifier) @reference.read
(type_identifier) @reference.type
(call_expression (simple_identifier) @name) @reference.call
(call_expression (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call
(inheritance_specifier inherits_from: (user_type (type_identifier) @name)) @reference.inherit
(assignment target: (directly_assignable_expression [(simple_identifier) @name (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))])) @reference.write

(import_declaration) @ignore
(parameter external_name: (simple_identifier) @ignore)
(value_argument name: (value_argument_label) @ignore)

; Declarations.
(class_declaration "class" name: (type_identifier) @name) @definition.class
(class_declaration "struct" name: (type_identifier) @name) @definition.class
(class_declaration "actor" name: (type_identifier) @name) @definition.class
(class_declaration "enum" name: (type_identifier) @name) @definition.enum
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.constructor
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
(enum_entry name: (simple_identifier) @name) @definition.enumMember
(typealias_declaration name: (type_identifier) @name) @definition.type

; Locals: parameters and what a function declares are its own.
(function_declaration) @local.scope
(init_declaration) @local.scope
(lambda_literal) @local.scope
(protocol_function_declaration) @local.scope
(parameter name: (simple_identifier) @local.definition)
(statements (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition)))
(lambda_parameter (simple_identifier) @local.definition)
(for_statement item: (pattern bound_identifier: (simple_identifier) @local.definition))
