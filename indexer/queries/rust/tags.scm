; Rust: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-rust's queries/tags.scm (MIT).

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(identifier) @reference.read
(type_identifier) @reference.type
(field_identifier) @reference.read
(call_expression function: [(identifier) @name (field_expression field: (field_identifier) @name) (scoped_identifier name: (identifier) @name)]) @reference.call
(macro_invocation macro: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.call
(struct_expression name: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)]) @reference.new
(impl_item trait: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name) (generic_type type: (type_identifier) @name)]) @reference.inherit
(assignment_expression left: [(identifier) @name (field_expression field: (field_identifier) @name)]) @reference.write
(use_declaration argument: [(identifier) @name (scoped_identifier name: (identifier) @name) (use_as_clause path: (scoped_identifier name: (identifier) @name)) (scoped_use_list list: (use_list [(identifier) @name (scoped_identifier name: (identifier) @name)]))]) @reference.import

(scoped_identifier path: (_) @ignore)
(scoped_type_identifier path: (_) @ignore)
(use_as_clause alias: (identifier) @ignore)
(token_tree) @ignore
(lifetime) @ignore

; Declarations.
(struct_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.enumMember
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.interface
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.method
(declaration_list (function_item name: (identifier) @name) @definition.method)
(impl_item type: [(type_identifier) @receiver (generic_type type: (type_identifier) @receiver) (scoped_type_identifier name: (type_identifier) @receiver)] body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.function
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(field_declaration name: (field_identifier) @name) @definition.field

; Locals: parameters and let bindings are their function's or closure's own.
(function_item) @local.scope
(closure_expression) @local.scope
(function_signature_item) @local.scope
(parameter pattern: (identifier) @local.definition)
(let_declaration pattern: (identifier) @local.definition)
(let_declaration pattern: (tuple_pattern (identifier) @local.definition))
(closure_parameters (identifier) @local.definition)
(closure_parameters (parameter pattern: (identifier) @local.definition))
(for_expression pattern: (identifier) @local.definition)
(if_expression condition: (let_condition pattern: (_ (identifier) @local.definition)))
(match_arm pattern: (match_pattern (_ (identifier) @local.definition)))
