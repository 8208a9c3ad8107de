; Tags for Java (tree-sitter-java 0.23.5): what declares a symbol, what refers to one, and the
; syntax resolution needs (scopes, imports, receivers, arguments, expression types). The capture
; vocabulary is the one indexer/src/jvm/tag-extractor.ts documents; the Java resolver gives the
; captures their meaning.
;
; Precedence: one name node yields one entry. A definition beats a reference; between references
; the pattern that comes last wins, so generic patterns come first and refining patterns follow.

; ---------------------------------------------------------------------------------------------
; Generic references, refined below.

(identifier) @reference.read

(type_identifier) @reference.type

; ---------------------------------------------------------------------------------------------
; Names that refer to nothing Sextant indexes: packages, modules, labels.

(package_declaration [(identifier) (scoped_identifier)] @package) @ignore

(module_declaration) @ignore

; `var` is a reserved type name, not a reference: the resolver infers the type from the initialiser.
((type_identifier) @ignore (#eq? @ignore "var"))

(labeled_statement (identifier) @ignore)

(break_statement (identifier) @ignore)

(continue_statement (identifier) @ignore)

; ---------------------------------------------------------------------------------------------
; Code scopes: where locals, parameters and local classes are visible. Every class-like and
; method-like definition is a scope of its own as well.

[
  (block)
  (constructor_body)
  (lambda_expression)
  (for_statement)
  (enhanced_for_statement)
  (catch_clause)
  (try_with_resources_statement)
  (switch_block)
  (switch_block_statement_group)
  (switch_rule)
  (static_initializer)
] @scope

; ---------------------------------------------------------------------------------------------
; Imports. Every segment of a dotted name is a reference whose receiver is the segments before it.

(import_declaration [(identifier) (scoped_identifier)] @import.path) @import

(import_declaration [(identifier) (scoped_identifier)] @import.path (asterisk) @import.wildcard) @import

(import_declaration "static" @import.static [(identifier) (scoped_identifier)] @import.path) @import

(import_declaration "static" @import.static [(identifier) (scoped_identifier)] @import.path (asterisk) @import.wildcard) @import

(scoped_identifier scope: (identifier) @name @reference.qualifier)

(scoped_identifier scope: (_) @receiver name: (identifier) @name) @reference.qualifier

(import_declaration (scoped_identifier scope: (_) @receiver name: (identifier) @name) @reference.import)

; ---------------------------------------------------------------------------------------------
; Types, definitions and their members.

(class_declaration name: (identifier) @name) @definition.class

(record_declaration name: (identifier) @name) @definition.class

(interface_declaration name: (identifier) @name) @definition.interface

(annotation_type_declaration name: (identifier) @name) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum

(enum_constant name: (identifier) @name) @definition.enumMember

(type_parameter . (type_identifier) @name) @definition.typeParameter

; A type parameter's (first) bound is its type: members of a T are the bound's, and overloads that
; differ only in bounds are told apart by it.
(type_parameter (type_bound . (_) @type)) @declaration

(method_declaration type: (_) @type name: (identifier) @name) @definition.method

(annotation_type_element_declaration type: (_) @type name: (identifier) @name) @definition.method

(constructor_declaration name: (identifier) @name) @definition.constructor

(compact_constructor_declaration name: (identifier) @name) @definition.constructor

(field_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name)) @definition.field

(constant_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name)) @definition.field

; Anonymous classes: no name; the type they instantiate is their supertype.
(object_creation_expression type: (_) @type (class_body) @definition.class)

; Modifiers, initialisers and doc comments of the definitions above.
(class_declaration (modifiers) @modifiers) @declaration

(record_declaration (modifiers) @modifiers) @declaration

(interface_declaration (modifiers) @modifiers) @declaration

(annotation_type_declaration (modifiers) @modifiers) @declaration

(enum_declaration (modifiers) @modifiers) @declaration

(method_declaration (modifiers) @modifiers) @declaration

(constructor_declaration (modifiers) @modifiers) @declaration

(compact_constructor_declaration (modifiers) @modifiers) @declaration

(field_declaration (modifiers) @modifiers) @declaration

(constant_declaration (modifiers) @modifiers) @declaration

(annotation_type_element_declaration (modifiers) @modifiers) @declaration

(enum_constant (modifiers) @modifiers) @declaration

(local_variable_declaration (modifiers) @modifiers) @declaration

(formal_parameter (modifiers) @modifiers) @declaration

(spread_parameter (modifiers) @modifiers) @declaration

((block_comment) @doc
  .
  [(class_declaration) (record_declaration) (interface_declaration) (annotation_type_declaration) (enum_declaration)
   (method_declaration) (constructor_declaration) (compact_constructor_declaration) (field_declaration) (constant_declaration)
   (annotation_type_element_declaration) (enum_constant)] @declaration)

(field_declaration declarator: (variable_declarator value: (_) @value)) @declaration

(constant_declaration declarator: (variable_declarator value: (_) @value)) @declaration

; ---------------------------------------------------------------------------------------------
; Locals and parameters.

(local_variable_declaration
  type: (_) @type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @value)) @definition.local

(formal_parameter type: (_) @type name: (identifier) @name) @definition.parameter

(spread_parameter (_) @type . (variable_declarator name: (identifier) @name)) @definition.parameter @varargs

(catch_formal_parameter (catch_type) @type name: (identifier) @name) @definition.parameter

(enhanced_for_statement type: (_) @type name: (identifier) @name value: (_) @value) @definition.local @iterates

(resource type: (_) @type name: (identifier) @name value: (_) @value) @definition.local

(lambda_expression parameters: (identifier) @name @definition.parameter)

(inferred_parameters (identifier) @name @definition.parameter)

(instanceof_expression right: (_) @type name: (identifier) @name) @definition.local

(type_pattern (_) @type . (identifier) @name) @definition.local

(record_pattern_component (_) @type . (identifier) @name) @definition.local

; Record components are fields (and, implicitly, accessor methods the resolver knows about); this
; follows the formal_parameter pattern to refine it.
(record_declaration
  parameters: (formal_parameters
    (formal_parameter type: (_) @type name: (identifier) @name) @definition.field))

; ---------------------------------------------------------------------------------------------
; Expressions: member access, calls, object creation, writes.

(scoped_type_identifier (_) @receiver . (type_identifier) @name) @reference.type

(field_access object: (_) @receiver field: (identifier) @name) @reference.read

(method_invocation name: (identifier) @name arguments: (argument_list) @arguments) @reference.call

(method_invocation object: (_) @receiver name: (identifier) @name arguments: (argument_list) @arguments) @reference.call

(object_creation_expression type: (type_identifier) @name arguments: (argument_list) @arguments) @reference.new

(object_creation_expression type: (generic_type (type_identifier) @name) @type arguments: (argument_list) @arguments) @reference.new

(object_creation_expression
  type: (scoped_type_identifier (_) @receiver . (type_identifier) @name)
  arguments: (argument_list) @arguments) @reference.new

(object_creation_expression
  type: (generic_type (scoped_type_identifier (_) @receiver . (type_identifier) @name)) @type
  arguments: (argument_list) @arguments) @reference.new

(explicit_constructor_invocation constructor: [(this) (super)] @name arguments: (argument_list) @arguments) @reference.constructor

(method_reference . (_) @receiver . (identifier) @name) @reference.methodref

(method_reference . (_) @receiver "new" @name) @reference.new

(assignment_expression left: (identifier) @name @reference.write)

(assignment_expression left: (field_access object: (_) @receiver field: (identifier) @name) @reference.write)

(update_expression (identifier) @name @reference.write)

(update_expression (field_access object: (_) @receiver field: (identifier) @name) @reference.write)

; `case ACTIVE ->`, `case MAX_SIZE:`: on an enum subject the name is one of its constants, named
; without the type; on any other subject a constant in scope (the resolver tells them apart).
(switch_expression
  condition: (parenthesized_expression (_) @receiver)
  body: (switch_block
    [(switch_block_statement_group (switch_label (identifier) @name @reference.read) @case)
     (switch_rule (switch_label (identifier) @name @reference.read) @case)]))

; ---------------------------------------------------------------------------------------------
; Supertypes and annotations.

; A class's header: its members are not in scope there, its type parameters are (JLS 6.3, 8.1.4), so
; `class DiffBuilder<T> implements Builder<…>` names the imported Builder, not its nested one. A
; record's components are not part of it (they see the record's members).
(class_declaration [(modifiers) (type_parameters) (superclass) (super_interfaces) (permits)] @header)

(record_declaration [(modifiers) (type_parameters) (super_interfaces)] @header)

(interface_declaration [(modifiers) (type_parameters) (extends_interfaces) (permits)] @header)

(enum_declaration [(modifiers) (super_interfaces)] @header)

(annotation_type_declaration (modifiers) @header)

(superclass
  [(type_identifier) @name
   (generic_type (type_identifier) @name)
   (scoped_type_identifier (_) @receiver . (type_identifier) @name)
   (generic_type (scoped_type_identifier (_) @receiver . (type_identifier) @name))] @reference.inherit) @superclass

(type_list
  [(type_identifier) @name
   (generic_type (type_identifier) @name)
   (scoped_type_identifier (_) @receiver . (type_identifier) @name)
   (generic_type (scoped_type_identifier (_) @receiver . (type_identifier) @name))] @reference.inherit)

; `throws`, `permits` and type bounds also use type_list-like syntax but are plain type uses.
(permits (type_list [(type_identifier) @name (generic_type (type_identifier) @name)] @reference.type))

(marker_annotation name: (identifier) @name) @reference.decorator

(annotation name: (identifier) @name) @reference.decorator

(marker_annotation name: (scoped_identifier scope: (_) @receiver name: (identifier) @name)) @reference.decorator

(annotation name: (scoped_identifier scope: (_) @receiver name: (identifier) @name)) @reference.decorator

; `@Retention(value = …)`: the element is a method of the annotation type.
(annotation
  arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @name) @reference.methodref)) @receiver

; ---------------------------------------------------------------------------------------------
; Expressions whose type needs no resolution, and wrappers that have their operand's type.

(string_literal) @literal.java.lang.String

(character_literal) @literal.char

[(decimal_integer_literal) (hex_integer_literal) (octal_integer_literal) (binary_integer_literal)] @literal.int

([(decimal_integer_literal) (hex_integer_literal) (octal_integer_literal) (binary_integer_literal)] @literal.long
  (#match? @literal.long "[lL]$"))

[(decimal_floating_point_literal) (hex_floating_point_literal)] @literal.double

([(decimal_floating_point_literal) (hex_floating_point_literal)] @literal.float
  (#match? @literal.float "[fF]$"))

[(true) (false)] @literal.boolean

(null_literal) @literal.null

(class_literal) @literal.java.lang.Class

(this) @this

(field_access object: (_) @receiver field: (this)) @this

(super) @super

(cast_expression type: (_) @type) @cast

(parenthesized_expression (_) @value) @parens

(generic_type (type_identifier) @value) @parens

(generic_type (scoped_type_identifier) @value) @parens

(ternary_expression consequence: (_) @value) @parens

(array_access array: (_) @value) @element

; Operators: comparisons and logic are booleans; arithmetic promotes its operands (JLS 5.6) or, for a
; `+` of a String, concatenates; a shift has its left operand's type; `x++` has x's. A binary
; expression is captured whole and read by its fields (left, operator, right): patterns on its
; children cost more than linear time on long concatenations (GB18030.java: 0.7 s became > 60 s).
(binary_expression) @arithmetic

(instanceof_expression) @literal.boolean

(unary_expression operator: "!") @literal.boolean

(unary_expression operator: ["+" "-" "~"] operand: (_) @value) @arithmetic

(update_expression (_) @value) @parens

; A lambda takes the type its target gives it; its parameters are those declared in its scope.
(lambda_expression) @lambda
