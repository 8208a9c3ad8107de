; Ruby: declarations and name references for the tags indexer (indexer/src/tags/tags-extractor.ts
; documents the captures). Adapted from tree-sitter-ruby's queries/tags.scm (MIT).

; References: every identifier and constant, then what the syntax says more precisely (the last
; pattern wins). A bare identifier may be a call without parentheses: it stays a read.
(identifier) @reference.read
(constant) @reference.read
(call method: (identifier) @name) @reference.call
(call method: (constant) @name) @reference.call
(superclass [(constant) @name (scope_resolution name: (constant) @name)]) @reference.inherit
(assignment left: [(identifier) @name (constant) @name]) @reference.write
(simple_symbol) @ignore

; Declarations.
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(alias name: (_) @name) @definition.method
(class name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.class
(singleton_class value: [(constant) @name (scope_resolution name: (_) @name)]) @definition.class
(module name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.module
(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)

; Locals: parameters and assigned names are their method's or block's own.
(method) @local.scope
(singleton_method) @local.scope
(block) @local.scope
(do_block) @local.scope
(lambda) @local.scope
(method_parameters [(identifier) @local.definition (optional_parameter name: (identifier) @local.definition) (keyword_parameter name: (identifier) @local.definition) (splat_parameter name: (identifier) @local.definition) (hash_splat_parameter name: (identifier) @local.definition) (block_parameter name: (identifier) @local.definition)])
(block_parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(assignment left: (identifier) @local.definition)
(operator_assignment left: (identifier) @local.definition)
