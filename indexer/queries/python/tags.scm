; Python: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-python's queries/tags.scm (MIT).

; References: every identifier, then what the syntax says more precisely (the last pattern wins).
(identifier) @reference.read
(attribute object: (_) @qualifier attribute: (identifier) @name) @reference.read
(type (identifier) @name) @reference.type
(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @qualifier attribute: (identifier) @name)) @reference.call
(decorator [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name) (call function: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])]) @reference.decorator
(class_definition superclasses: (argument_list [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)])) @reference.inherit
(assignment left: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)]) @reference.write
(augmented_assignment left: [(identifier) @name (attribute object: (_) @qualifier attribute: (identifier) @name)]) @reference.write
(import_from_statement module_name: (_) @qualifier name: [(dotted_name (identifier) @name .) (aliased_import name: (dotted_name (identifier) @name .))]) @reference.import

; Import bindings: what each imported name or module is bound to in the file.
(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name (identifier) @import.name .)) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name (identifier) @import.name .) alias: (identifier) @import.alias)) @import

; Imported modules are no declarations of this repository's names.
(import_statement) @ignore
(import_from_statement module_name: (_) @ignore)
(aliased_import alias: (identifier) @ignore)
(keyword_argument name: (identifier) @ignore)

; Declarations. An assignment declares a variable where it is no function's local (at the top of
; the module, also inside an `if` or `try` there); a class's own, a field; `self.x = …` in a method,
; a field of the method's class (the first such assignment declares it).
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(assignment left: (identifier) @name) @definition.variable
(assignment left: (pattern_list (identifier) @name)) @definition.variable
((assignment left: (identifier) @name) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @definition.field)))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name)) @definition.field
  (#eq? @_self "self"))

; Locals: parameters and names assigned inside a function are its own (outside any scope they are
; no locals).
(function_definition) @local.scope
(lambda) @local.scope
(list_comprehension) @local.scope
(set_comprehension) @local.scope
(dictionary_comprehension) @local.scope
(generator_expression) @local.scope
(parameters [(identifier) @local.definition (typed_parameter (identifier) @local.definition) (default_parameter name: (identifier) @local.definition) (typed_default_parameter name: (identifier) @local.definition) (list_splat_pattern (identifier) @local.definition) (dictionary_splat_pattern (identifier) @local.definition) (typed_parameter (list_splat_pattern (identifier) @local.definition)) (typed_parameter (dictionary_splat_pattern (identifier) @local.definition))])
(lambda_parameters (identifier) @local.definition)
(assignment left: [(identifier) @local.definition (pattern_list (identifier) @local.definition) (tuple_pattern (identifier) @local.definition)])
(augmented_assignment left: (identifier) @local.definition)
(for_statement left: [(identifier) @local.definition (pattern_list (identifier) @local.definition) (tuple_pattern (identifier) @local.definition)])
(for_in_clause left: [(identifier) @local.definition (pattern_list (identifier) @local.definition) (tuple_pattern (identifier) @local.definition)])
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @local.definition)))
(except_clause (as_pattern alias: (as_pattern_target (identifier) @local.definition)))
