; Scala: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-scala's queries/tags.scm (MIT).

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(identifier) @reference.read
(type_identifier) @reference.type
(call_expression function: [(identifier) @name (field_expression field: (identifier) @name)]) @reference.call
(instance_expression [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.new
(extends_clause type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.inherit
(assignment_expression left: [(identifier) @name (field_expression field: (identifier) @name)]) @reference.write

(package_clause) @ignore
(import_declaration) @ignore

; Declarations.
(trait_definition name: (identifier) @name) @definition.interface
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(enum_definition name: (identifier) @name) @definition.enum
(simple_enum_case name: (identifier) @name) @definition.enumMember
(full_enum_case name: (identifier) @name) @definition.enumMember
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.method
(type_definition name: (type_identifier) @name) @definition.type
(template_body (val_definition pattern: (identifier) @name) @definition.property)
(template_body (var_definition pattern: (identifier) @name) @definition.property)
(template_body (val_declaration name: (identifier) @name) @definition.property)
(template_body (var_declaration name: (identifier) @name) @definition.property)
(compilation_unit (val_definition pattern: (identifier) @name) @definition.variable)
(given_definition name: (identifier) @name) @definition.variable
(class_parameter name: (identifier) @name) @definition.property

; Locals: parameters and what a function or block declares are its own.
(function_definition) @local.scope
(function_declaration) @local.scope
(lambda_expression) @local.scope
(block) @local.scope
(parameter name: (identifier) @local.definition)
(block (val_definition pattern: (identifier) @local.definition))
(block (var_definition pattern: (identifier) @local.definition))
(lambda_expression parameters: (bindings (binding name: (identifier) @local.definition)))
(lambda_expression parameters: (identifier) @local.definition)
(enumerator (identifier) @local.definition)
