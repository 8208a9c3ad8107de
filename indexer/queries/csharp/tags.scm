; C#: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-c-sharp's queries/tags.scm (MIT).

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(identifier) @reference.read
(invocation_expression function: [(identifier) @name (member_access_expression name: (identifier) @name) (generic_name (identifier) @name) (member_access_expression name: (generic_name (identifier) @name))]) @reference.call
(object_creation_expression type: [(identifier) @name (qualified_name name: (identifier) @name) (generic_name (identifier) @name)]) @reference.new
(base_list [(identifier) @name (qualified_name name: (identifier) @name) (generic_name (identifier) @name)]) @reference.inherit
(variable_declaration type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name)]) @reference.type
(parameter type: [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name)]) @reference.type
(attribute name: [(identifier) @name (qualified_name name: (identifier) @name)]) @reference.decorator
(assignment_expression left: [(identifier) @name (member_access_expression name: (identifier) @name)]) @reference.write

(using_directive) @ignore
(namespace_declaration name: (_) @ignore)
(file_scoped_namespace_declaration name: (_) @ignore)

; Declarations.
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.enumMember
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.property
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
((field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))
(namespace_declaration name: [(identifier) @name (qualified_name name: (identifier) @name)]) @definition.namespace
(file_scoped_namespace_declaration name: [(identifier) @name (qualified_name name: (identifier) @name)]) @definition.namespace

; Locals: parameters and local variables are their member's own.
(method_declaration) @local.scope
(constructor_declaration) @local.scope
(local_function_statement) @local.scope
(lambda_expression) @local.scope
(accessor_declaration) @local.scope
(parameter name: (identifier) @local.definition)
(local_declaration_statement (variable_declaration (variable_declarator name: (identifier) @local.definition)))
(foreach_statement left: (identifier) @local.definition)
(catch_declaration name: (identifier) @local.definition)
(lambda_expression parameters: (implicit_parameter) @local.definition)
