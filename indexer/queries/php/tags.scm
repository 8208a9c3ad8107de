; PHP: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-php's queries/tags.scm (MIT).

; References: every name, then what the syntax says more precisely (the last pattern wins).
(name) @reference.read
(named_type [(name) @name (qualified_name (name) @name .)]) @reference.type
(function_call_expression function: [(name) @name (qualified_name (name) @name .)]) @reference.call
(member_call_expression name: (name) @name) @reference.call
(nullsafe_member_call_expression name: (name) @name) @reference.call
(scoped_call_expression name: (name) @name) @reference.call
(object_creation_expression [(name) @name (qualified_name (name) @name .)]) @reference.new
(base_clause [(name) @name (qualified_name (name) @name .)]) @reference.inherit
(class_interface_clause [(name) @name (qualified_name (name) @name .)]) @reference.inherit
(use_declaration [(name) @name (qualified_name (name) @name .)]) @reference.inherit
(namespace_use_clause [(name) @name (qualified_name (name) @name .)]) @reference.import
(attribute [(name) @name (qualified_name (name) @name .)]) @reference.decorator
(assignment_expression left: (member_access_expression name: (name) @name)) @reference.write

(namespace_definition name: (_) @ignore)
(qualified_name prefix: (_) @ignore)
(namespace_use_clause alias: (_) @ignore)

; Declarations.
(namespace_definition name: (namespace_name (name) @name .)) @definition.namespace
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.interface
(class_declaration name: (name) @name) @definition.class
(enum_declaration name: (name) @name) @definition.enum
(enum_case name: (name) @name) @definition.enumMember
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(property_declaration (property_element name: (variable_name (name) @name))) @definition.property
(const_declaration (const_element (name) @name)) @definition.constant

; Locals: variables ($x) are their function's own; $this is no declaration's name.
(function_definition) @local.scope
(method_declaration) @local.scope
(anonymous_function) @local.scope
(arrow_function) @local.scope
(variable_name (name) @local.definition)
((variable_name (name) @ignore) (#eq? @ignore "this"))
