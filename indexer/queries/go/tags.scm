; Go: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-go's queries/tags.scm (MIT).

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
; Each names the identifier it captures (no @name): the fewer nodes a match carries out of the runtime, the faster.
(identifier) @reference.read
(type_identifier) @reference.type
; A field is used through a selector (its declarations and a struct literal's keys are no uses).
(selector_expression operand: (_) @qualifier field: (field_identifier) @reference.read)
(qualified_type package: (package_identifier) @qualifier name: (type_identifier) @reference.type)
; Their qualifiers are the selector's and the qualified type's, captured above.
(call_expression function: [(identifier) @reference.call (parenthesized_expression (identifier) @reference.call)])
(call_expression function: (selector_expression field: (field_identifier) @reference.call))
(composite_literal type: (type_identifier) @reference.new)
(composite_literal type: (qualified_type name: (type_identifier) @reference.new))
(assignment_statement left: (expression_list (identifier) @reference.write))
(assignment_statement left: (expression_list (selector_expression field: (field_identifier) @reference.write)))

(package_clause) @ignore
(import_declaration) @ignore

; Import bindings: a package is bound to its name, or to the last element of its path.
(import_spec !name path: (interpreted_string_literal (interpreted_string_literal_content) @import.module)) @import
(import_spec name: (package_identifier) @import.alias path: (interpreted_string_literal (interpreted_string_literal_content) @import.module)) @import
(keyed_element . (literal_element (identifier) @ignore))

; Declarations.
(function_declaration name: (identifier) @name) @definition.function
(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver) (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))])) name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name) @definition.type
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.class
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_alias name: (type_identifier) @name) @definition.type
(field_declaration name: (field_identifier) @name) @definition.field
(method_elem name: (field_identifier) @name) @definition.method
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))

; Locals: parameters, receivers and what a function declares are its own.
(function_declaration) @local.scope
(method_declaration) @local.scope
(func_literal) @local.scope
(method_elem) @local.scope
(parameter_declaration name: (identifier) @local.definition)
(variadic_parameter_declaration name: (identifier) @local.definition)
(short_var_declaration left: (expression_list (identifier) @local.definition))
(var_spec name: (identifier) @local.definition)
(const_spec name: (identifier) @local.definition)
(range_clause left: (expression_list (identifier) @local.definition))
(type_parameter_declaration name: (identifier) @local.definition)
